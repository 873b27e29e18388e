import type { MessageWithParts, PartRecord, ToolState } from '../../src-shared'
import { runTool, type ToolContext } from '../tools'
import type { RunContext } from './run-turn'

export interface PendingCall {
  part: PartRecord
  toolName: string
  input: unknown
  inputError?: string
  /** already answered by the person (a call resumed after a host restart): skip the permission gate */
  decided?: { approved: true } | { approved: false; message: string }
}

/** A tool's own part, for tools that show live progress in it (the task tool's subagent card). */
export interface PartHandle {
  readonly part: PartRecord
  patch(data: Record<string, unknown>, state?: ToolState): void
}

export type ToolContextFactory = (call: { handle: PartHandle; toolName: string; mustAsk?: string }) => ToolContext

/**
 * Hooks of a run (issue 27): around each tool call, when a turn starts and when the model ends it. A port the runtime
 * fills from the run's hook configuration; absent when no hook is configured. Each returns undefined when no hook
 * matches (nothing to await).
 */
export interface LoopHooks {
  /**
   * Before the first request of a turn: `block` (the prompt is not sent: `messageId` is the prompt's message),
   * context for the model, notices for the person, `halt` (a hook's `continue: false`: the turn ends, the text said
   * to the person).
   */
  start?(history: MessageWithParts[]): Promise<{ block?: { text: string; messageId: string }; context: string[]; notices: string[]; halt?: string }> | undefined
  /** The model ended its turn: a reason to go on (a Stop / SubagentStop hook's block), notices for the person, `halt`. */
  stop?(o: { text: string; active: boolean }): Promise<{ reason?: string; notices: string[]; halt?: string }> | undefined
  /** before the call: `block` (the model reads it as the call's error), `ask` (the person must approve), notes, `halt` */
  before(call: { toolName: string; input: unknown; toolCallId: string }): Promise<{ block?: string; ask?: string; notes: string[]; halt?: string }> | undefined
  /** after a successful call: text appended to what the model reads of the result, `halt` */
  after(call: { toolName: string; input: unknown; toolCallId: string; output: string }): Promise<{ notes: string[]; halt?: string }> | undefined
  /** after a call that ran and failed (PostToolUseFailure): text appended to the error the model reads, `halt` */
  failed?(call: { toolName: string; input: unknown; toolCallId: string; error: string; interrupted: boolean }): Promise<{ notes: string[]; halt?: string }> | undefined
  /** before a compaction (PreCompact): `block` ("<hook> blocked it: reason"), notices for the person */
  compact?(o: { trigger: 'manual' | 'auto'; instructions: string }): Promise<{ block?: string; notices: string[] }> | undefined
}

/** Runs one step's tool calls concurrently (parallel `task` calls fan out here) and records each outcome. */
/**
 * Runs a step's tool calls. Resolves with whether the turn ends here: a tool whose result says `endsTurn` (an
 * approved plan: the next turn belongs to another agent) ends it without another request.
 */
export async function executeToolCalls(ctx: RunContext, calls: PendingCall[]): Promise<{ endsTurn: boolean; halt?: string }> {
  const ended = await Promise.all(calls.map((call) => executeOne(ctx, call)))
  // A hook's `continue: false` (its stopReason for the person): the turn ends once the step's calls are done.
  return { endsTurn: ended.some((e) => e.ends), halt: ended.find((e) => e.halt)?.halt }
}

async function executeOne(ctx: RunContext, call: PendingCall): Promise<{ ends: boolean; halt?: string }> {
  const { part } = call
  const sessionId = ctx.transcript.sessionId
  const handle: PartHandle = {
    part,
    patch(data, state) {
      part.data = { ...part.data, ...data }
      if (state) part.toolState = state
      ctx.transcript.upsertPart(part)
    },
  }
  const startedAt = Date.now()
  handle.patch({ startedAt })
  const def = ctx.tools.find((t) => t.name === call.toolName)
  let result: { ok: boolean; output: string; metadata?: Record<string, unknown>; durationMs: number }
  let halt: string | undefined
  if (!def) {
    const names = ctx.tools.map((t) => t.name).join(', ') || '(none)'
    result = { ok: false, output: ctx.unknownTool?.(call.toolName) ?? `Unknown tool "${call.toolName}". Available tools: ${names}.`, durationMs: 0 }
  } else if (call.inputError) {
    result = { ok: false, output: `Invalid arguments for ${call.toolName}: ${call.inputError}.`, durationMs: 0 }
  } else if (call.decided && !call.decided.approved) {
    result = { ok: false, output: call.decided.message, durationMs: 0 }
  } else {
    const approved = call.decided?.approved === true
    const toolCallId = part.toolCallId ?? ''
    // A call the person already approved (resumed after a restart) had its hooks run before it asked.
    const pending = approved ? undefined : ctx.hooks?.before({ toolName: call.toolName, input: call.input, toolCallId })
    const pre = pending ? await pending : undefined
    halt = pre?.halt
    if (pre?.block) {
      result = { ok: false, output: withNotes(pre.block, pre.notes), metadata: { hookBlocked: true }, durationMs: 0 }
    } else {
      const toolContext = ctx.toolContext({ handle, toolName: call.toolName, mustAsk: pre?.ask })
      result = await runTool(def, call.input, approved ? { ...toolContext, authorize: async () => ({ ok: true as const }) } : toolContext)
      // PostToolUse after a success, PostToolUseFailure after a failure: each adds to what the model reads.
      const hook = { toolName: call.toolName, input: call.input, toolCallId }
      const afterward = result.ok ? ctx.hooks?.after({ ...hook, output: result.output }) : ctx.hooks?.failed?.({ ...hook, error: result.output, interrupted: ctx.signal.aborted })
      const post = afterward ? await afterward : undefined
      halt ??= post?.halt
      const notes = [...(pre?.notes ?? []), ...(post?.notes ?? [])]
      if (notes.length) result = { ...result, output: withNotes(result.output, notes) }
    }
  }
  const endedAt = Date.now()
  handle.patch(
    result.ok
      ? { output: result.output, error: undefined, metadata: result.metadata, endedAt, durationMs: result.durationMs }
      : { error: result.output, output: undefined, metadata: result.metadata, endedAt, durationMs: result.durationMs },
    result.ok ? 'output-available' : 'output-error',
  )
  ctx.emit({
    type: 'tool_call_end',
    sessionId,
    at: endedAt,
    messageId: part.messageId,
    partId: part.id,
    toolCallId: part.toolCallId ?? '',
    toolName: call.toolName,
    ok: result.ok,
    output: result.output,
    durationMs: result.durationMs,
    ...(result.metadata ? { metadata: result.metadata } : {}),
  })
  return { ends: result.ok && result.metadata?.endsTurn === true, halt }
}

/** What hooks said, after the result: the model reads it and the person sees it in the tool's card. */
function withNotes(output: string, notes: string[]): string {
  return notes.length ? `${output}\n\n${notes.join('\n\n')}` : output
}
