import path from 'node:path'
import { HostError, type AgentInfo, type AgentMode, type Config, type HostApi, type HostCalls, type MessageWithParts, type ModelRef, type SandboxState, type SessionRecord } from '../../src-shared'
import { createAgentFile, listAgents, type AgentRegistry } from '../agents'
import type { Approvals } from '../approvals'
import { listCommands, type CommandSet } from '../commands'
import type { LoadedConfig } from '../config'
import type { McpPool } from '../mcp'
import type { RunRegistry, Scratchpads } from '../runtime'
import type { EventHub } from '../events'
import { defaultModelRef, parseModelRef, type KeyStore } from '../models'
import { ancestorsOf, emitterFor, requireSession as requireStored, type SessionRunner } from '../sessions'
import type { ApprovalsRepository, CheckpointsRepository, QueueRepository, SearchRepository, SessionsRepository, TranscriptRepository } from '../store'
import { INTERRUPTED_REASON, type Subagents } from '../subagents'
import type { StaticLayers, TrustList } from '../trust'
import { forgetSessions, type TurnRecorder, type Undo } from '../undo'
import { changeCalls } from './change-calls'
import { chatCalls } from './chat-calls'
import { mcpCalls } from './mcp-calls'
import { hookCalls } from './hook-calls'
import { skillCalls } from './skill-calls'
import { providerCalls } from './provider-calls'
import { budgetOf } from './budget-of'
import { FileFinder } from './file-finder'
import { backgroundCardFacts, buildRunMap } from './run-map'
import { settingsCalls } from './settings-calls'
import { snapshotFor } from './snapshot'
import { trustCalls } from './trust-calls'
import { worktreeCalls } from './worktree-calls'
import type { Workspaces } from './workspaces'
import { containerStatus, type createContainerPort } from './container-port'

export interface CallDeps {
  sessions: SessionsRepository
  transcript: TranscriptRepository
  search: SearchRepository
  queue: QueueRepository
  /** runtime rules (settings); pending approvals come from the approvals service */
  rules: Pick<ApprovalsRepository, 'listRules' | 'revokeRule'>
  runner: SessionRunner
  subagents: Subagents
  approvals: Approvals
  registry: AgentRegistry
  config(workdir?: string): LoadedConfig
  /** throws ModelConfigError when a model cannot be used here (unknown provider, missing script …) */
  checkModel(ref: ModelRef, agentName: string, workdir: string): void
  staticRules(workdir: string): StaticLayers
  trust: TrustList
  /** the slash commands of a workspace (built-ins, the person's, the workspace's once trusted) */
  commands(workdir: string): CommandSet
  /** the model an agent's file names, resolved with the given config; undefined = inherit */
  agentModel(agent: AgentInfo, config: Config): ModelRef | undefined
  hub: EventHub
  keys: KeyStore
  env: NodeJS.ProcessEnv
  dataDir: string
  workspaces: Workspaces
  sandboxStatus(workdir: string): Promise<SandboxState>
  /** a deleted root session's event stream: the hub lets go of it */
  forgetStream(stream: string): void
  mcp: McpPool
  /** every run in flight */
  runs: Pick<RunRegistry, 'get' | 'list' | 'steer'>
  /** the conversations' scratchpads: removed when a conversation is archived or deleted */
  scratchpads: Pick<Scratchpads, 'remove'>
  /** undo, redo, revert and the Changes view */
  undo: Undo
  /** the checkpoint stores (space, prune, a deleted session's snapshots) */
  recorder: TurnRecorder
  checkpoints: CheckpointsRepository
  /** an unexpected failure outside any call's answer: logged; returns the id the person is shown */
  fault(where: string, err: unknown): string
  /** a root conversation was deleted: its SessionEnd hooks run (in the background) */
  sessionEnded?(session: { id: string; workspaceRoot: string }): void
  /** the container engine children with isolation: container run on (absent: none is set up) */
  containers?: Pick<ReturnType<typeof createContainerPort>, 'status' | 'engineLabel'>
}

/** The bridge calls, one method each. Inputs arrive validated; expected failures are HostErrors. */
export function createCalls(d: CallDeps): HostApi {
  const { sessions: rows } = d
  const requireSession = (id: string): SessionRecord => requireStored(rows, id)
  const publishUpdate = (s: SessionRecord) => emitterFor(d.hub, rows, s).emit({ type: 'session_updated', sessionId: s.id, at: Date.now(), session: s })
  const agentsWithMode = (workdir: string | undefined, mode: AgentMode): string[] =>
    d.registry
      .resolve(workdir ?? d.workspaces.defaultRoot)
      .agents.filter((a) => a.mode === mode)
      .map((a) => a.name)

  const finder = new FileFinder()

  const calls: HostCalls = {
    'workspaces.list': async () => ({ recent: d.workspaces.recent(), defaultRoot: d.workspaces.defaultRoot }),
    'workspaces.open': async ({ root }) => ({ root: d.workspaces.open(root) }),
    'workspaces.complete': async ({ partial }) => ({ folders: d.workspaces.complete(partial) }),
    // The composer's `@` finder: the session's workspace (or the folder named), listed once per few seconds.
    'files.find': async ({ workspaceRoot, sessionId, query, limit }) =>
      finder.find(d.workspaces.realFolder(workspaceRoot ?? requireSession(sessionId ?? '').workspaceRoot), query, limit ?? 50),
    'containers.status': async () => containerStatus(d.containers, d.config().config.containers),
    'commands.list': async ({ workspaceRoot }) => listCommands(d.commands(d.workspaces.realFolder(workspaceRoot))),
    'agents.list': async ({ workspaceRoot }) => listAgents(d.registry.resolve(workspaceRoot), d.config(workspaceRoot).config),
    'agents.create': async ({ workspaceRoot, ...agent }) => {
      return createAgentFile(d.registry, { dataDir: d.dataDir, workdir: d.workspaces.open(workspaceRoot) }, agent)
    },
    'sessions.list': async (f) => {
      const modeAgents = f.mode ? agentsWithMode(f.workspaceRoot, f.mode) : undefined
      const agents = f.agent ? (modeAgents ? modeAgents.filter((a) => a === f.agent) : [f.agent]) : modeAgents
      if (agents && agents.length === 0) return { sessions: [] }
      const sessions = rows.listSessions({
        workspaceRoot: f.workspaceRoot,
        agents,
        parentId: f.parentId !== undefined ? f.parentId : f.includeChildren ? undefined : null,
        includeArchived: f.includeArchived,
        search: f.search,
        limit: f.limit,
        offset: f.offset,
      })
      const counts = rows.sessionCounts(sessions.map((s) => s.id))
      return { sessions: sessions.map((s) => ({ ...s, ...counts[s.id] })) }
    },
    'sessions.get': async ({ sessionId }) => {
      const session = requireSession(sessionId)
      const ancestors = ancestorsOf(rows, session)
      const root = ancestors[0]?.id ?? session.id
      return {
        session,
        messages: d.transcript.listMessages(sessionId),
        children: rows.listSessions({ parentId: sessionId, includeArchived: true, limit: 1000 }),
        queue: d.queue.listQueue(sessionId),
        approvals: d.approvals.pending(root),
        ancestors: ancestors.map((a) => ({ id: a.id, title: a.title, agent: a.agent })),
        lastSeq: d.hub.lastSeq(root),
      }
    },
    'sessions.create': async (input) => {
      const root = d.workspaces.open(input.workspaceRoot)
      const { agents, errors } = d.registry.resolve(root)
      const agentName = input.agent ?? 'build'
      const agent = agents.find((a) => a.name === agentName)
      if (!agent) {
        // The agent's file is there but could not be loaded: say why, not just that the name is unknown.
        const broken = errors.find((e) => path.basename(e.file).replace(/\.[^.]+$/, '') === agentName)
        if (broken) {
          const where = `${broken.file}${broken.line ? `:${broken.line}` : ''}`
          const reason = `${broken.field ? `${broken.field}: ` : ''}${broken.reason}`.replace(/\s*\n\s*/g, ' ')
          throw new HostError('not_found', `Agent "${agentName}" could not be loaded: ${where}: ${reason}. Fix the file and try again (agentry agents lists every problem).`)
        }
        throw new HostError('not_found', `No agent "${agentName}" in ${root}. Available: ${agents.map((a) => a.name).join(', ')}.`)
      }
      if (agent.mode === 'subagent') throw new HostError('invalid_request', `Agent "${agentName}" is a subagent (mode: subagent); only primary agents open sessions. Pick another agent.`)
      let model: ModelRef
      try {
        // The person's pick, else the model the agent's file names, else the configured default.
        model = input.model ? parseModelRef(input.model) : (d.agentModel(agent, d.config(root).config) ?? defaultModelRef(d.config(root).config))
      } catch (err) {
        throw new HostError('invalid_request', (err as Error).message)
      }
      // The session's model must be usable: refused now, with the reason, rather than at its first prompt.
      try {
        d.checkModel(model, agent.name, root)
      } catch (err) {
        throw new HostError('config_error', (err as Error).message)
      }
      const session = rows.createSession({ agent: agent.name, title: input.title ?? '', workspaceRoot: root, model })
      emitterFor(d.hub, rows, session).emit({ type: 'session_created', sessionId: session.id, at: Date.now(), session })
      return { session }
    },
    'sessions.rename': async ({ sessionId, title }) => {
      requireSession(sessionId)
      const session = rows.updateSession(sessionId, { title })
      publishUpdate(session)
      return { session }
    },
    'sessions.archive': async ({ sessionId, archived }) => {
      requireSession(sessionId)
      const archive = () => {
        requireSession(sessionId)
        const session = rows.updateSession(sessionId, { archivedAt: archived ? Date.now() : null })
        // The conversation's scratchpad goes with it (seed 003): notes for its agents, not the person's work.
        if (archived && !session.parentId) d.scratchpads.remove(session.id)
        publishUpdate(session)
        return { session }
      }
      // Archiving puts a conversation away: what still runs in it stops first (unarchiving starts nothing).
      return archived ? d.runner.whileStopped(sessionId, 'session archived', archive) : archive()
    },
    'sessions.summarize': async ({ sessionId }) => {
      const session = requireSession(sessionId)
      return { summary: await d.runner.summarize(session.id) }
    },
    'sessions.delete': async ({ sessionId }) => {
      requireSession(sessionId)
      // Every run in the tree stops and its writes settle first: a write for a deleted row would have nowhere to go.
      await d.runner.whileStopped(sessionId, 'session deleted', () => {
        // Deleted meanwhile by an overlapping call: done either way.
        if (!rows.getSession(sessionId)) return
        const session = rows.getSession(sessionId)!
        const removed = rows.deleteSession(sessionId)
        for (const id of removed) d.scratchpads.remove(id)
        // Their snapshots go too (in the background: git's gc takes a moment); a failure is logged, the rows are gone.
        d.recorder.inBackground("forgetting a deleted session's checkpoints", () => forgetSessions({ recorder: d.recorder, workspaceRoot: session.workspaceRoot, sessionIds: removed }))
        d.runner.forget(removed)
        for (const id of removed) d.forgetStream(id)
        if (!session.parentId) d.sessionEnded?.(session)
      })
      return { ok: true as const }
    },
    'messages.prompt': async (input) => {
      const r = d.runner.prompt(input)
      return { queueId: r.entry.id, duplicate: r.duplicate, queued: r.queued }
    },
    'messages.abort': async ({ sessionId, reason }) => {
      requireSession(sessionId)
      if (reason === 'interrupted') return { aborted: d.runner.abort(sessionId, INTERRUPTED_REASON), returned: [] }
      // Taken off the queue first: the run's end must find nothing to start.
      const returned = d.runner.takeQueued(sessionId)
      return { aborted: d.runner.abort(sessionId), returned }
    },
    'queue.list': async ({ sessionId }) => ({ entries: d.queue.listQueue(sessionId) }),
    'queue.cancel': async ({ queueId }) => {
      const entry = d.queue.getQueueEntry(queueId)
      if (!entry) throw new HostError('not_found', `No queued message ${queueId}.`)
      return { cancelled: entry.status === 'queued' && d.runner.cancelQueued(queueId, entry.sessionId) }
    },
    'approvals.list': async ({ rootSessionId }) => ({ approvals: d.approvals.pending(rootSessionId) }),
    'approvals.answer': async (input) => {
      return d.approvals.answer(input, d.runner)
    },
    'tasks.list': async ({ rootSessionId }) => {
      const parents = new Map<string, MessageWithParts[]>()
      return {
        tasks: d.queue.listJobs({ rootSessionId }).map((j) => ({
          taskId: j.id,
          parentSessionId: j.parentSessionId,
          agentType: j.agentType,
          description: j.description,
          status: j.status,
          createdAt: j.createdAt,
          endedAt: j.endedAt,
          ...budgetOf(d.runs.get(j.id)?.budget?.()),
          ...backgroundCardFacts(d, j, parents),
        })),
      }
    },
    'runs.map': async ({ rootSessionId }) => ({ nodes: buildRunMap(d, rootSessionId) }),
    // The person's message to a running session (a root turn or a child at any depth), read at its next step.
    'sessions.steer': async ({ sessionId, text }) => {
      if (!d.runs.steer(sessionId, text, 'person')) {
        throw new HostError('conflict', `Session ${sessionId} is not running, so there is no next step to give this to. Send it as a new message in that session instead.`)
      }
      return { delivery: 'next_step' as const }
    },
    // The person stops one child from the tasks panel: like Stop, for that child and everything below it.
    'tasks.abort': async ({ taskId }) => ({ aborted: d.runs.get(taskId)?.kind === 'task' && d.runner.abort(taskId) }),
    ...settingsCalls(d),
    ...providerCalls(d),
    ...chatCalls(d),
    ...trustCalls(d),
    ...worktreeCalls(d),
    ...changeCalls(d),
    ...mcpCalls(d),
    ...hookCalls(d),
    ...skillCalls(d),
  }
  const snapshot = (stream: string) => snapshotFor({ sessions: rows, approvals: d.approvals }, d.runner, stream)
  return { calls, subscribe: (input, onMessage) => d.hub.subscribe(input, onMessage, snapshot) }
}
