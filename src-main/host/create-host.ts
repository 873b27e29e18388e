import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AgentEvent, AgentInfo, Config, HostApi, ModelRef, SessionRecord } from '../../src-shared'
import { AgentRegistry, modelChoices, resolveAgentModel, resolveCallModel } from '../agents'
import { Approvals } from '../approvals'
import { discoverCommands, withSkillCommands } from '../commands'
import type { LoadedConfig } from '../config'
import { EventHub } from '../events'
import { McpPool } from '../mcp'
import { createFileKeyStore, modelInfo, resolveModel, type KeyStore } from '../models'
import { ensureDefaultPermissionsFile, protectedWriteReason } from '../permissions'
import { hookFiles, loadHooks } from '../hooks'
import { networkAllowed, RunRegistry, Runtime, sandboxPolicy, Scratchpads, sessionEndHooks, type RuleSources, type SessionEndReason } from '../runtime'
import { detectSandbox, SANDBOX_PROBE_FILE, sandboxState } from '../sandbox'
import { loadSkills } from '../skills'
import { emitterFor, SessionRunner } from '../sessions'
import { expireCheckpoints, TurnRecorder, Undo } from '../undo'
import { openStore, type Store } from '../store'
import { HOST_STOP_REASON, Subagents } from '../subagents'
import { protectLocalPort, type EditorFiles } from '../tools'
import { createCalls } from './calls'
import { containCallFaults } from './contain-faults'
import { openHostLog, type HostLog } from './host-log'
import { startAutoArchive } from './auto-archive'
import { acquireDataDirLock } from './lock'
import { returnUnreadMessages } from './returned-messages'
import { reconcileAfterRestart, type ReconcileReport } from './reconcile'
import { createContainerPort } from './container-port'
import { Workspaces } from './workspaces'
import { createSettingsSource } from './workspace-settings'

export interface HostOptions {
  dataDir: string
  /** the folder a new session opens in when none is given (CLI cwd, daemon start dir) */
  defaultWorkspace?: string
  /** no one can ever answer approvals on this host: ask = deny for every run (a prompt can also ask for this alone) */
  headless?: boolean
  keys?: KeyStore
  env?: NodeJS.ProcessEnv
  /** take the single-writer lock on the data dir (default true) */
  lock?: boolean
  /** backoff base for provider retries (tests make it tiny) */
  retryDelayMs?: number
  /** where the log's one-line fault notices are echoed (default stderr) */
  echo?: (line: string) => void
  /**
   * Inspect a data dir whose host is gone, changing nothing: no lock, the database read-only (an empty one when there
   * is none yet), no restart reconciliation, no queued prompt started. For `agentry sessions` and `show`.
   */
  readOnly?: boolean
  /** an editor that shows a conversation's files (`agentry acp`): file tools read and write through it */
  editorFiles?(rootSessionId: string): EditorFiles | undefined
}

export interface Host {
  readonly dataDir: string
  /** what every transport and the CLI use: the bridge calls and subscriptions */
  readonly api: HostApi
  /** for tests and benches that inspect what was persisted */
  readonly store: Store
  readonly runner: SessionRunner
  readonly subagents: Subagents
  /** every run in flight (turns, tasks, helpers), one tree */
  readonly runs: RunRegistry
  readonly hub: EventHub
  /** the workspaces' MCP servers (started on first need, stopped with the host) */
  readonly mcp: McpPool
  readonly reconcileReport: ReconcileReport
  /** `{dataDir}/logs/host.log`: unexpected failures with the id their caller was shown */
  readonly log: HostLog
  /** A port this process serves on loopback (the daemon's): no tool call may reach it, whatever the rules say. */
  protectLocalPort(port: number): void
  stop(): Promise<void>
}

/**
 * The composition root: the one place the host is assembled, in dependency order (store → event hub → restart
 * reconciliation → agents, settings (config, rules, trust) → approvals → runtime → subagents → session runner → bridge calls). Each
 * module gets the repositories and ports it needs, once; nothing is bound later. The callbacks that go back up a
 * layer are ports the lower layer declares and the higher one implements: a run level carries the runner as its
 * `BackgroundSink`; an approval answer carries it as the `ResumeHook`; a subscription carries the snapshot source.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  const dataDir = path.resolve(options.dataDir)
  const readOnly = options.readOnly ?? false
  if (!readOnly) fs.mkdirSync(dataDir, { recursive: true })
  const releaseLock = options.lock === false || readOnly ? () => {} : acquireDataDirLock(dataDir)
  const disposers: (() => void | Promise<void>)[] = [releaseLock]
  try {
    const log = openHostLog(dataDir, { echo: options.echo })
    const fault = (where: string, err: unknown) => log.fault(where, err)
    const dbFile = path.join(dataDir, 'agentry.db')
    const store = readOnly
      ? openStore(fs.existsSync(dbFile) ? dbFile : ':memory:', { log: (line) => log.note(line), readOnly: fs.existsSync(dbFile) })
      : openStore(dbFile, { log: (line) => log.note(line) })
    disposers.push(() => store.close())
    // A flush on the timer has no caller: its failure is logged (the rows stay buffered for the next flush).
    disposers.push(store.onError((err) => void fault('writing to the store', err)))
    const { sessions } = store
    const hub = new EventHub(store.eventLog)
    disposers.push(() => hub.dispose())
    const publish = (session: SessionRecord | undefined, event: AgentEvent) => {
      if (session) emitterFor(hub, sessions, session).emit(event)
    }
    // Before any run, and through the hub: a viewer resuming from its last seq sees what reconciliation closed.
    const reconcileReport = readOnly
      ? { toolParts: 0, sessions: 0, backgroundJobs: 0, approvals: 0 }
      : reconcileAfterRestart(store, (sessionId, event) => publish(sessions.getSession(sessionId), event))
    if (!readOnly) ensureDefaultPermissionsFile(dataDir)

    const env = options.env ?? process.env
    const keys = options.keys ?? createFileKeyStore(dataDir)
    const registry = new AgentRegistry({ dataDir })
    disposers.push(() => registry.dispose())
    // The person's own skills (~/.claude/skills) are found under the host's HOME (tests give it one of their own).
    const settings = createSettingsSource(dataDir, registry, env.HOME)
    const config = (workdir?: string): LoadedConfig => (workdir ? settings.forWorkspace(workdir).config : settings.personal())
    const staticRules = (workdir: string) => settings.forWorkspace(workdir).rules
    const agents = (workdir: string) => registry.resolve(workdir).agents
    const agentModel = (agent: AgentInfo, config: Config): ModelRef | undefined => resolveAgentModel(agent.model, config).modelRef
    // Slash commands (issue 27): the person's (HOME as the host was given it) always, the workspace's once trusted.
    // Skills are commands too (`/pdf …`), after the files: a command file of the same name keeps it.
    const commands = (workdir: string, only?: string) => {
      const trusted = settings.trust.state(workdir).status === 'trusted'
      const home = env.HOME || os.homedir()
      return withSkillCommands(discoverCommands({ home, dataDir, workdir, trusted, only }), loadSkills({ dataDir, workdir, home, trusted }).skills, { trusted, only })
    }
    // MCP servers start when a run first needs them and stop with the host (before the store closes).
    const mcp = new McpPool({ dataDir, env })
    disposers.push(() => mcp.dispose())
    // Every run in flight, in one tree: the runner's turns and the subagents' tasks start and end in it.
    const runs = new RunRegistry()
    const rules: RuleSources = {
      protectedWrite: (absTarget, workdir) => protectedWriteReason(absTarget, workdir, dataDir),
      runtimeRules: (path, workdir) => [
        ...[
          ...store.approvals.listRules({ scope: 'workspace', scopeKey: workdir }),
          ...path.flatMap((id) => store.approvals.listRules({ scope: 'session', scopeKey: id })),
        ].map(({ tool, pattern, action }) => ({ tool, pattern, action })),
        ...runs.grantsOn(path),
      ],
    }

    const approvals = new Approvals(store.approvals, (sessionId, rule) => {
      const run = runs.get(sessionId)
      if (!run) return false
      run.grants.push(rule)
      return true
    })
    const modelFor = (ref: ModelRef, agentName: string, loaded: LoadedConfig) =>
      resolveModel(ref, { config: loaded.config, configDir: dataDir, keys, env, agentName, keyLimits: loaded.keyLimits })
    // Checkpoints around turns (undo, the Changes view): the runtime tells the recorder who was allowed to write what.
    const recorder = new TurnRecorder({ dataDir, rows: store.checkpoints, fault })
    // Turns a previous host died in get the workspace as found now as their after-snapshot, before any new turn starts.
    const recovered = readOnly ? Promise.resolve(0) : recorder.recoverInterrupted().catch((err: unknown) => (fault('recovering checkpoints', err), 0))
    // Git may still be writing into a store (a prune, an expiry): the host stops after it, never under it.
    disposers.push(() => recorder.drain())
    const runtime = new Runtime({
      writes: recorder.log,
      mailboxes: runs,
      approvals,
      dataDir,
      rules,
      sessions,
      retryDelayMs: options.retryDelayMs,
      resolveModel: modelFor,
      // Only the person's own config.yaml decides the sandbox: a workspace must not be able to turn it off.
      sandboxSettings: () => config().config.sandbox,
      editorFiles: options.editorFiles,
      mcp,
    })
    // Containers of children (isolation: container); a crashed host's leftovers are found by label and removed.
    const containers = createContainerPort(dataDir, env)
    if (!readOnly) void containers.sweepLeftovers(config().config.containers, (line) => log.note(line)).catch((err: unknown) => fault('removing leftover containers', err))
    const subagents = new Subagents({
      runtime,
      runs,
      rules,
      sessions,
      transcript: store.transcript,
      jobs: store.queue,
      agentModel,
      modelInfo,
      resolveCallModel,
      modelChoices,
      dataDir,
      containers,
      fault,
    })
    // The conversations' scratchpads: those of conversations gone (deleted, archived) while no host ran go now.
    const scratchpads = new Scratchpads(dataDir)
    if (!readOnly) scratchpads.sweep((id) => sessions.getSession(id)?.archivedAt === null)
    const scratchpad = (rootSessionId: string): string | undefined => {
      try {
        return scratchpads.open(rootSessionId)
      } catch (err) {
        // The run goes on without one (its agents are not told of any); the reason is in the log.
        fault('the scratchpad', err)
        return undefined
      }
    }
    const runner = new SessionRunner({
      sessions,
      transcript: store.transcript,
      queue: store.queue,
      approvalRecords: store.approvals,
      spend: store.spend,
      approvals,
      hub,
      runs,
      subagents,
      agents,
      settings: (workdir) => settings.forRun(workdir),
      agentModel,
      modelInfo,
      headless: options.headless ?? false,
      fault,
      scratchpad,
      commands,
      // After the recovery below: a turn's before-snapshot must not be taken as the after of a turn the last host died in.
      checkpoints: { begin: async (o) => (config().config.checkpoints.enabled ? (await recovered, recorder.begin(o)) : undefined) },
    })
    disposers.push(returnUnreadMessages({ runs, sessions, runner, publish, fault }))
    const undo = new Undo({
      recorder,
      rows: store.checkpoints,
      sessions,
      transcript: store.transcript,
      dataDir,
      busy: (id) => runner.isRunning(id) || store.queue.listQueue(id, 'queued').length > 0,
      emit: (session, event) => publish(session, event),
      recovered,
      keepDays: () => config().config.checkpoints.keepDays,
    })
    // What bounds the checkpoint stores: turns older than checkpoints.keepDays lose their snapshots — at start (after
    // the recovery) and every six hours while the host runs.
    if (!readOnly) {
      const expire = () =>
        recorder.inBackground('expiring old checkpoints', () => recovered.then(() => expireCheckpoints({ recorder, rows: store.checkpoints, keepDays: config().config.checkpoints.keepDays })))
      expire()
      const timer = setInterval(expire, 6 * 60 * 60 * 1000).unref()
      disposers.push(() => clearInterval(timer))
    }
    const workspaces = new Workspaces(dataDir, options.defaultWorkspace ?? process.cwd())
    const sandboxStatus = async (workdir: string) => {
      const layers = staticRules(workdir)
      const network = networkAllowed([{ agent: [], static: layers.static, workspace: layers.workspace, runtime: rules.runtimeRules([], workdir) }])
      return sandboxState(config().config.sandbox.enabled, network, await detectSandbox(env, { memoFile: path.join(dataDir, SANDBOX_PROBE_FILE) }))
    }
    // SessionEnd hooks (issue 27): a conversation deleted (`other`), or — when the host stops — each conversation that
    // had a prompt in this process (`prompt_input_exit`: the person left Agentry). Read when the session ends; never
    // awaited by the deletion, awaited by the stop (each hook at most its own timeout).
    const ending = new Set<Promise<void>>()
    const endSession = (s: { id: string; workspaceRoot: string }, reason: SessionEndReason): Promise<void> => {
      runtime.started.delete(s.id)
      const trusted = settings.trust.state(s.workspaceRoot).status === 'trusted'
      const hooks = loadHooks(hookFiles({ dataDir, workdir: s.workspaceRoot, home: env.HOME || undefined }), { trusted })
      if (!hooks.byEvent.has('SessionEnd')) return Promise.resolve()
      const layers = staticRules(s.workspaceRoot)
      const network = networkAllowed([{ agent: [], static: layers.static, workspace: layers.workspace, runtime: rules.runtimeRules([], s.workspaceRoot) }])
      const policy = sandboxPolicy({ settings: config().config.sandbox, network, workdir: s.workspaceRoot, dataDir })
      const run = sessionEndHooks(hooks, { sessionId: s.id, workdir: s.workspaceRoot, policy, reason })
      if (!run) return Promise.resolve()
      const tracked = run.finally(() => ending.delete(tracked))
      ending.add(tracked)
      return tracked
    }
    const calls = createCalls({
      containers,
      sessions,
      transcript: store.transcript,
      search: store.search,
      queue: store.queue,
      rules: store.approvals,
      runner,
      runs,
      subagents,
      approvals,
      registry,
      config,
      agentModel,
      // Resolution is lazy: this checks the provider and its settings without loading or calling anything.
      checkModel: (ref, agentName, workdir) => void modelFor(ref, agentName, config(workdir)),
      staticRules,
      sandboxStatus,
      trust: settings.trust,
      commands,
      hub,
      keys,
      env,
      dataDir,
      workspaces,
      forgetStream: (stream) => hub.forget(stream),
      mcp,
      scratchpads,
      undo,
      recorder,
      checkpoints: store.checkpoints,
      fault,
      sessionEnded: (session) => void endSession(session, 'other'),
    })
    // A fault in one call is contained: it answers `internal` with an id to find in the log; the host goes on.
    const api = containCallFaults(calls, log)
    disposers.push(approvals.onChange((root) => runner.approvalsChanged(root, approvals.pending(root))))
    if (!readOnly) disposers.push(
      startAutoArchive(sessions, () => config().config.subagents.archiveAfterMinutes, (ids) => {
        for (const id of ids) {
          const session = sessions.getSession(id)
          if (session) publish(session, { type: 'session_updated', sessionId: id, at: Date.now(), session })
        }
      }),
    )
    if (!readOnly) runner.resumeQueues()

    let stopped = false
    return {
      dataDir,
      api,
      store,
      runner,
      subagents,
      runs,
      hub,
      mcp,
      reconcileReport,
      log,
      protectLocalPort,
      async stop() {
        if (stopped) return
        stopped = true
        // Children first, with the host's own cause (nothing they return wakes anyone), then the turns and helpers.
        for (const r of runs.list('task')) r.abort(HOST_STOP_REASON, true)
        await runner.stop(HOST_STOP_REASON)
        await runs.settleAll()
        // The conversations that ran here end with the host; their SessionEnd hooks run before the store closes.
        const ran = [...runtime.started].flatMap((id) => sessions.getSession(id) ?? [])
        await Promise.all([...ran.map((s) => endSession(s, 'prompt_input_exit')), ...ending])
        for (const dispose of disposers.reverse()) await dispose()
      },
    }
  } catch (err) {
    for (const dispose of disposers.reverse()) await dispose()
    throw err
  }
}
