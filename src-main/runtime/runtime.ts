import path from 'node:path'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import type { ApprovalArguments, ModelRef, SandboxSettings, TokenUsage } from '../../src-shared'
import type { Approvals } from '../approvals'
import type { LoadedConfig } from '../config'
import type { PartHandle, RunContext, Transcript } from '../loop'
import { buildSystemPrompt } from '../loop'
import { acceptsImages, acceptsToolResultImages } from '../models'
import type { SessionsRepository } from '../store'
import type { SandboxPolicy } from '../sandbox'
import type { EditorFiles, ToolContext, ToolDef } from '../tools'
import { askThePerson } from './ask-person'
import { authorizeCall, chainFor, rulesSay, snapshotRules, type RuleSources } from './authorize'
import { networkAllowed, sandboxPolicy } from './sandbox-policy'
import type { RunLevel, WriteSink } from './level'
import type { RunRegistry } from './runs'
import { serverDeniedOutright, unavailableToolMessage, visibleMcpServers, type McpToolSource } from './mcp-visibility'
import { offeredNativeTools, toolsForRun } from './tool-set'
import { loopHooks, notifyingApprovals } from './tool-hooks'
import { skillsForRun, skillTool } from './skill-tool'
import { preloadedSkills } from './preload-skills'

export interface RuntimeDeps {
  approvals: Approvals
  dataDir: string
  rules: RuleSources
  /** the run's model, from the configuration the run started with */
  resolveModel(ref: ModelRef, agentName: string, config: LoadedConfig): LanguageModelV4
  /** a stored session's todos and active agent live in its metadata */
  sessions: Pick<SessionsRepository, 'getSession' | 'updateSession'>
  /** the person's sandbox settings (their own config.yaml only); absent → sandbox on */
  sandboxSettings?(): SandboxSettings
  /** the editor showing a conversation's files, when one drives it (an ACP client); looked up per tool call */
  editorFiles?(rootSessionId: string): EditorFiles | undefined
  /** MCP servers' tools (the host's pool); absent → none */
  mcp?: McpToolSource
  retryDelayMs?: number
  /** told of every allowed tool call (checkpoints attribute a turn's changes with it); absent → nobody listens */
  writes?: WriteSink
  /** where messages sent to a running session wait for its next step (the run registry); absent → no steering */
  mailboxes?: Pick<RunRegistry, 'takeMessages'>
}

/** The context every tool gets, plus — for tools of higher layers such as `task` — the run level and the tool's own part. */
export interface RunToolContext extends ToolContext {
  level: RunLevel
  handle: PartHandle
}

export function isRunToolContext(ctx: ToolContext): ctx is RunToolContext {
  return 'level' in ctx && 'handle' in ctx
}

export interface PrepareOptions {
  /** tools of higher layers offered to this run (the subagents module's `task`) */
  tools?: ToolDef[]
  onStep?(s: { index: number; usage: TokenUsage }): void
  /** asked before each model request (see RunContext.beforeRequest): the budget check of the level's caller */
  beforeRequest?: RunContext['beforeRequest']
  /** a host helper (title, summary, compaction): its own prompt only — no workspace instructions, environment or tool list */
  bare?: boolean
}

/** Builds the loop's RunContext for any level — root or subagent — so there is one way to run an agent. */
export class Runtime {
  /** root sessions that had a prompt in this host process: SessionStart's `resume`, SessionEnd at shutdown */
  readonly started = new Set<string>()

  constructor(readonly deps: RuntimeDeps) {}

  /**
   * The loop's context for a level. Async for MCP: servers the run may see whose tools are not known yet start here
   * (once per server; later runs reuse their tool lists), each within its start timeout.
   */
  async prepare(level: RunLevel, transcript: Transcript, o: PrepareOptions = {}): Promise<RunContext> {
    const servers = visibleMcpServers(level).filter((e) => !serverDeniedOutright(level.chain, e.name))
    const mcp = servers.length && this.deps.mcp ? await this.deps.mcp.toolsFor(level.workdir, servers, level.signal) : undefined
    // The skill tool only when some skill is offered: without skills the model's tools are as before.
    const skills = o.bare ? [] : skillsForRun(level)
    const own = skills.length ? [skillTool(skills)] : []
    const tools = toolsForRun(level.agent, level.chain, [...own, ...(o.tools ?? []), ...(mcp?.tools ?? [])], level.depth)
    const native = offeredNativeTools(level, this.deps.rules)
    const { runaway } = level.settings.config.config
    const mailboxes = this.deps.mailboxes
    const hooks = o.bare ? undefined : loopHooks(level, () => this.sandboxFor(level), this.started)
    // A root run without hooks still counts as started here: a hook configured later must not read it as resumed.
    if (!hooks && !o.bare && level.depth === 0) this.started.add(level.sessionId)
    const system = o.bare
      ? level.agent.prompt.trim()
      : buildSystemPrompt({ agent: level.agent, workdir: level.workdir, tools: [...tools, ...native], model: level.modelRef, scratchpad: level.scratchpad, worktree: level.worktree, preloaded: preloadedSkills(level) })
    return {
      agent: level.agent,
      model: this.deps.resolveModel(level.modelRef, level.agent.name, level.settings.config),
      transcript,
      tools,
      providerTools: native.map((t) => t.spec),
      system,
      signal: level.signal,
      maxSteps: level.agent.maxSteps,
      emit: level.emit,
      setStatus: (status, reason, retry) => level.emit({ type: 'status_change', sessionId: level.sessionId, at: Date.now(), status, reason, ...(retry ? { retry } : {}) }),
      toolContext: ({ handle, toolName, mustAsk }) => this.toolContext(level, handle, toolName, mustAsk),
      hooks,
      unknownTool: (name) => unavailableToolMessage(mcp, name),
      toolResultImages: acceptsToolResultImages(level.modelRef, level.settings.config.config),
      images: acceptsImages(level.modelRef, level.settings.config.config),
      messageMetadata: { model: level.modelRef, agent: level.agent.name },
      onStep: o.onStep,
      beforeRequest: o.beforeRequest,
      outputTokenCap: level.agent.maxOutputTokens ?? runaway.maxOutputTokens,
      requestMs: runaway.requestSeconds * 1000,
      repeatedCallLimit: runaway.repeatedCalls,
      ...(mailboxes && !o.bare ? { inbox: { take: () => mailboxes.takeMessages(level.sessionId) } } : {}),
      retryDelayMs: this.deps.retryDelayMs,
      timeouts: {
        firstByteMs: level.settings.config.config.timeouts.firstByteSeconds * 1000,
        idleMs: level.settings.config.config.timeouts.idleSeconds * 1000,
      },
    }
  }

  /** The bash sandbox policy of this run; hook commands run under it too. */
  sandboxFor(level: RunLevel): SandboxPolicy {
    return sandboxPolicy({
      settings: this.deps.sandboxSettings?.(),
      network: networkAllowed(chainFor(level, this.deps.rules)),
      workdir: level.workdir,
      dataDir: this.deps.dataDir,
      scratchpad: level.scratchpad,
      skillDirs: skillsForRun(level).map((s) => s.dir),
    })
  }

  toolContext(level: RunLevel, handle: PartHandle, toolName: string, mustAsk?: string): RunToolContext {
    const { rules } = this.deps
    // Notification hooks hear of every question the person is asked, as it is asked (never awaited).
    const approvals = notifyingApprovals(this.deps.approvals, level, () => this.sandboxFor(level))
    const ask = (kind: 'question' | 'plan', args: ApprovalArguments) =>
      askThePerson(approvals, level, { kind, toolName, toolCallId: handle.part.toolCallId ?? '', messageId: handle.part.messageId, arguments: args })
    let ownChecks: RuleSources | undefined
    return {
      level,
      handle,
      sessionId: level.sessionId,
      rootSessionId: level.rootSessionId,
      messageId: handle.part.messageId,
      toolCallId: handle.part.toolCallId ?? '',
      agent: level.agent.name,
      workdir: level.workdir,
      signal: level.signal,
      // One folder per session: a tool-output:// reference resolves only inside the session that saved it.
      overflowDir: path.join(this.deps.dataDir, 'tool-output', level.sessionId),
      ...(toolName === 'bash' ? { sandbox: this.sandboxFor(level), ...(level.container ? { container: level.container } : {}) } : {}),
      ...(mustAsk ? { mustAsk } : {}),
      editorFiles: this.deps.editorFiles?.(level.rootSessionId),
      authorize: async (permissionAsk, display) => {
        const verdict = await authorizeCall({ level, rules, approvals, toolName, ask: permissionAsk, display, handle, mustAsk })
        if (verdict.ok) await this.deps.writes?.allowed(level, toolName, Array.isArray(permissionAsk) ? permissionAsk : [permissionAsk])
        return verdict
      },
      checkRules: (permissionAsk, opts) =>
        rulesSay({ level, rules: (ownChecks ??= snapshotRules(level, rules)), toolName, ask: permissionAsk, named: opts?.named }),
      setTodos: (todos) => this.patchMetadata(level, { todos }),
      askUser: async (question, options) => {
        if (level.headless) throw new Error('No one can answer questions in a headless run; continue with your best assumption and state it.')
        level.emit({ type: 'status_change', sessionId: level.sessionId, at: Date.now(), status: 'waiting_on_user' })
        const answer = await ask('question', { question, options })
        level.emit({ type: 'status_change', sessionId: level.sessionId, at: Date.now(), status: 'busy' })
        if (answer.outcome !== 'approved') throw new Error('The user did not answer the question; continue with your best assumption and state it.')
        return answer.feedback ?? ''
      },
      planExit: async (plan) => {
        if (level.headless) return { approved: false, headless: true }
        const answer = await ask('plan', { plan })
        if (answer.outcome === 'approved') {
          // The session's next turns run with `build`; `activeAgentSince` lets a client tell this switch from an
          // agent picked for an earlier message (the composer's chip follows whichever is newer).
          this.patchMetadata(level, { activeAgent: 'build', activeAgentSince: Date.now() })
          return { approved: true }
        }
        return { approved: false, feedback: answer.outcome === 'denied' ? answer.feedback : answer.reason }
      },
    }
  }

  /** Stored sessions keep todos and the active agent in their metadata; an opaque child has no row to patch. */
  private patchMetadata(level: RunLevel, patch: Record<string, unknown>): void {
    const session = this.deps.sessions.getSession(level.sessionId)
    if (!session) return
    const updated = this.deps.sessions.updateSession(session.id, { metadata: { ...session.metadata, ...patch } })
    // Viewers hold a copy of the session (the composer's agent chip reads activeAgent from it).
    level.emit({ type: 'session_updated', sessionId: updated.id, at: Date.now(), session: updated })
  }
}
