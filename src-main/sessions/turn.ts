import { parseCommandCall, type AgentInfo, type Config, type QueueEntry, type SessionRecord, type SessionStatus, type TokenUsage } from '../../src-shared'
import { appendErrorMessage, appendFileParts, appendTextMessage, emptyUsage, errorCode, runTurn, StoredTranscript, textPart } from '../loop'
import { promptFiles, addStep, type Allowance, type Reached, type RunLevel, type RunRecord, type RunSettings } from '../runtime'
import { INTERRUPTED_REASON } from '../subagents'
import { commandOf, performCommand, retriedCommand, type CommandCall, type CommandOutcome } from './command-turn'
import { maybeCompact } from './compaction'
import type { Emitter } from './emitter'
import { promptTooLong } from './prompt-fits'
import { noteRuleErrors } from './rule-notice'
import { publishBudget, rootBudgetCheck, turnAllowance } from './root-budget'
import type { RunnerDeps } from './runner'
import { settleWaitingCalls } from './waiting-calls'

const INTERRUPTED_NOTICE = 'Interrupted: the agentry run command that ran this turn was stopped (Ctrl-C or SIGTERM). Tool calls in flight were stopped and not repeated. Send a message to continue.'

/** What a turn needs from the runner that runs it. */
export interface TurnHost {
  deps: RunnerDeps
  emitter(session: SessionRecord): Emitter
  setStatus(session: SessionRecord, status: SessionStatus, reason?: string): SessionRecord
  level(session: SessionRecord, agent: AgentInfo, settings: RunSettings, signal: AbortSignal, userMessageId: string | null): RunLevel
  /** the budgets above this prompt's turns (`fresh`: a new prompt, read them again) */
  budgetsAbove(session: SessionRecord, config: Config, fresh: boolean): Allowance | undefined
  /** the first prompt of a conversation names it (fire-and-forget) */
  title(level: RunLevel, session: SessionRecord, text: string): void
  /** the queued prompt is an edit: the first message of the edited message's version group (asked once) */
  editOf?(queueId: string): string | undefined
}

/**
 * One turn of a stored session: the queued prompt (or a retry, a background result, resumed calls) becomes a user
 * message, the session is busy, the loop runs, and the session ends idle, aborted or in error — with the turn's usage
 * counted for it and, for a child session, for its ancestors. The turn's totals are its run record's.
 */
export async function runSessionTurn(host: TurnHost, o: { sessionId: string; entry: QueueEntry | undefined; record: RunRecord; resuming: boolean }): Promise<void> {
  const { deps } = host
  const { sessionId, entry, record } = o
  let session = deps.sessions.getSession(sessionId)
  if (!session) return
  const agentName = entry?.agent ?? (session.metadata.activeAgent as string | undefined) ?? session.agent
  // Read once for the whole run: files changed while it runs (even by the agent) apply from the next prompt.
  const settings = deps.settings(session.workspaceRoot)
  const agent = settings.agents.find((a) => a.name === agentName)
  const { emit } = host.emitter(session)
  if (entry?.status === 'queued') emit({ type: 'message_queued', sessionId, at: Date.now(), queueId: entry.id, text: entry.text, removed: true })
  const transcript = new StoredTranscript(deps.transcript, sessionId)
  if (!agent) {
    appendErrorMessage(transcript, emit, 'agent_not_found', `Agent "${agentName}" is not defined in ${session.workspaceRoot}. Pick another agent and send again.`)
    host.setStatus(session, 'error', `agent "${agentName}" is not defined any more; pick another agent`)
    return
  }
  const retrying = entry?.kind === 'retry'
  const firstPrompt = entry !== undefined && !retrying && !transcript.history().some((m) => m.role === 'user')

  // A command (`/name args`, issue 27), read from its files as they are now; the message first shows what was typed.
  // Read only for a prompt that starts with `/`: every other turn pays nothing for commands.
  // A retry of a command's message runs the command again (a failed one may never have been expanded).
  const retried = retrying ? retriedCommand(transcript) : undefined
  const typed = entry && !retrying ? entry.text : retried?.typed
  const called = typed ? parseCommandCall(typed)?.name : undefined
  const commands = called && deps.commands ? deps.commands(session.workspaceRoot, called === 'help' ? undefined : called) : undefined
  let command: CommandCall | undefined
  let commandError: string | undefined
  try {
    command = commands && typed ? commandOf(typed, commands) : undefined
  } catch (err) {
    commandError = (err as Error).message
  }
  let userMessageId: string | null = null
  let userPart = retried?.part
  if (entry && !retrying) {
    const editOf = host.editOf?.(entry.id)
    const meta = {
      ...(editOf ? { editOf } : {}),
      ...(agent.name !== session.agent ? { agent: agent.name } : {}),
      ...(entry.requestId ? { requestId: entry.requestId } : {}),
      ...(command ? { command: command.use } : {}),
    }
    if (command) {
      const message = transcript.createMessage('user', meta)
      userPart = textPart(message.id, sessionId, entry.text)
      transcript.upsertPart(userPart)
      emit({ type: 'message_created', sessionId, at: Date.now(), message })
      emit({ type: 'part_updated', sessionId, at: Date.now(), part: userPart })
      userMessageId = message.id
    } else userMessageId = appendTextMessage(transcript, emit, 'user', entry.text, meta).id
    // Attachments, and the workspace files `@path` mentions name, read now: the message keeps what the model was sent.
    if (entry.attachments?.length || entry.text.includes('@')) appendFileParts(transcript, emit, userMessageId, promptFiles(entry.text, entry.attachments, session.workspaceRoot, settings.rules))
  }
  if (commandError) {
    appendErrorMessage(transcript, emit, 'invalid_request', commandError)
    host.setStatus(session, 'idle')
    emit({ type: 'turn_complete', sessionId, at: Date.now(), messageId: null, finishReason: 'error', usage: emptyUsage(), text: '' })
    return
  }
  noteRuleErrors(transcript, emit, settings.rules.errors)
  session = host.setStatus(session, 'busy')
  // A turn without a new message (a retry, a background result, a resumed call) still belongs to the last user message.
  userMessageId ??= [...transcript.history()].reverse().find((m) => m.role === 'user' && !m.metadata.synthetic)?.id ?? null
  const level = host.level(session, agent, settings, record.controller.signal, userMessageId)
  // A command's `model:` runs this turn on that model (resolved like an agent file's `model:`).
  if (command?.command.model) level.modelRef = deps.agentModel({ ...agent, model: command.command.model }, settings.config.config) ?? level.modelRef
  const allowance = turnAllowance(deps, session.workspaceRoot, host.budgetsAbove(session, settings.config.config, entry !== undefined && !retrying))
  level.allowance = allowance
  // The limit the person was last asked about: shown as reached if the turn ends on it.
  let asked: Reached | undefined
  // Nothing to show (no budget now, none shown before): no read of the row per step.
  let shown = session.metadata.budget !== undefined
  const showBudget = (hit?: Reached) => {
    if (hit) asked = hit
    if (!shown && !allowance.limited) return
    shown = true
    publishBudget(deps, level, allowance, (s) => host.emitter(s).emit({ type: 'session_updated', sessionId: s.id, at: Date.now(), session: s }), hit)
  }
  if (firstPrompt && entry) host.title(level, session, entry.text)
  const info = await deps.modelInfo(level.modelRef, settings.config.config)
  let run
  try {
    run = await deps.subagents.prepare(level, level.transcript, {
      // Priced per step: a table may bill a long prompt at a higher rate, request by request. Counted as it happens,
      // so a host that dies mid-run has lost nothing of what was spent.
      onStep: ({ usage }) => {
        const cost = info.cost(usage)
        addStep(record.totals, usage, cost)
        allowance.charge(usage, cost)
        countStep(host, level, usage, cost)
        showBudget()
      },
      beforeRequest: () => rootBudgetCheck(deps, level, allowance, showBudget),
    })
  } catch (err) {
    // Model not configured / key missing: the run cannot start; say why, in this session.
    const e = err as Error
    appendErrorMessage(transcript, emit, errorCode(e, 'internal'), e.message)
    host.setStatus(deps.sessions.getSession(sessionId) ?? session, 'error', e.message)
    emit({ type: 'turn_complete', sessionId, at: Date.now(), messageId: null, finishReason: 'error', usage: emptyUsage(), text: '' })
    return
  }
  // Everything the turn may change — resumed calls included — lies between the two checkpoints.
  const recording = await deps.checkpoints?.begin({ sessionId, messageId: userMessageId, workspaceRoot: session.workspaceRoot, eager: o.resuming })
  let result
  let outcome: CommandOutcome | undefined
  try {
    if (command && commands && userPart) {
      const site = { run, transcript, emit, workdir: session.workspaceRoot, compact: (instructions: string) => maybeCompact(deps, level, 0, { trigger: 'manual', instructions, hooks: run.hooks }) }
      // opencode: a command whose agent is a subagent runs as a subtask unless it says `subtask: false`.
      const subtask = command.command.subtask ?? settings.agents.find((a) => a.name === command?.command.agent)?.mode === 'subagent'
      outcome = await performCommand(site, { ...command, command: { ...command.command, subtask } }, commands, userPart)
      if (outcome.kind !== 'prompt') {
        if (outcome.kind === 'error') appendErrorMessage(transcript, emit, 'invalid_request', outcome.message)
        return
      }
    }
    await settleWaitingCalls(deps, level, run, o.resuming)
    await maybeCompact(deps, level, info.contextWindow, { trigger: 'auto', hooks: run.hooks })
    const tooLong = promptTooLong(level.transcript.history(), level.modelRef, info)
    if (tooLong) {
      outcome = { kind: 'error', message: tooLong }
      appendErrorMessage(transcript, emit, 'invalid_request', tooLong)
      return
    }
    result = await runTurn(run)
  } finally {
    await recording?.end()
    // A command that did all there was to do (or could not be expanded) ends its turn here, the model not asked.
    if (outcome && outcome.kind !== 'prompt') {
      const failure = outcome.kind === 'error' ? outcome.message : undefined
      const failed = failure !== undefined
      host.setStatus(deps.sessions.getSession(sessionId) ?? session, level.signal.aborted ? 'aborted' : failed ? 'error' : 'idle', failure)
      emit({ type: 'turn_complete', sessionId, at: Date.now(), messageId: null, finishReason: level.signal.aborted ? 'aborted' : failed ? 'error' : 'stop', usage: emptyUsage(), text: '' })
    }
  }
  showBudget(result.finishReason === 'budget' ? asked : undefined)
  // Interrupted (the client running the turn went away) is not a failure of the session: it is left idle.
  const interrupted = result.finishReason === 'aborted' && record.controller.signal.reason === INTERRUPTED_REASON
  const status: SessionStatus = interrupted ? 'idle' : result.finishReason === 'aborted' ? 'aborted' : result.finishReason === 'error' ? 'error' : 'idle'
  if (interrupted) appendTextMessage(level.transcript, emit, 'assistant', INTERRUPTED_NOTICE, { notice: 'interrupted' })
  // Cut by a Stop (the person's, or the host's): the answer it cut keeps a neutral "Stopped" mark at its end. Live
  // clients mark it from this turn_complete (finishReason aborted, its messageId); a reload reads it here.
  else if (result.finishReason === 'aborted' && result.lastMessageId) level.transcript.updateMessageMetadata(result.lastMessageId, { stopped: true })
  host.setStatus(deps.sessions.getSession(sessionId) ?? session, status, result.error)
  emit({
    type: 'turn_complete',
    sessionId,
    at: Date.now(),
    messageId: result.lastMessageId,
    finishReason: result.finishReason,
    usage: result.usage,
    text: result.text,
    ...(result.contextTokens !== undefined ? { contextTokens: result.contextTokens } : {}),
  })
}

/** One step's usage: the session's own totals, and — for a child session prompted directly — its ancestors' subagent totals. */
function countStep(host: TurnHost, level: RunLevel, usage: TokenUsage, costUsd: number | null): void {
  const { sessions } = host.deps
  sessions.addSessionUsage(level.sessionId, usage, costUsd)
  const ancestors = level.path.slice(0, -1)
  if (ancestors.length === 0) return
  sessions.addSubagentUsage(ancestors, usage, costUsd)
  for (const id of ancestors) {
    const s = sessions.getSession(id)
    if (s) host.emitter(s).emit({ type: 'session_updated', sessionId: id, at: Date.now(), session: s })
  }
}
