import type { PartRecord, ToolState } from '../../src-shared'
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

export type ToolContextFactory = (call: { handle: PartHandle; toolName: string }) => ToolContext

/** Runs one step's tool calls concurrently (parallel `task` calls fan out here) and records each outcome. */
/**
 * Runs a step's tool calls. Resolves with whether the turn ends here: a tool whose result says `endsTurn` (an
 * approved plan: the next turn belongs to another agent) ends it without another request.
 */
export async function executeToolCalls(ctx: RunContext, calls: PendingCall[]): Promise<{ endsTurn: boolean }> {
  const ended = await Promise.all(calls.map((call) => executeOne(ctx, call)))
  return { endsTurn: ended.some(Boolean) }
}

async function executeOne(ctx: RunContext, call: PendingCall): Promise<boolean> {
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
  if (!def) {
    const names = ctx.tools.map((t) => t.name).join(', ') || '(none)'
    result = { ok: false, output: ctx.unknownTool?.(call.toolName) ?? `Unknown tool "${call.toolName}". Available tools: ${names}.`, durationMs: 0 }
  } else if (call.inputError) {
    result = { ok: false, output: `Invalid arguments for ${call.toolName}: ${call.inputError}.`, durationMs: 0 }
  } else if (call.decided && !call.decided.approved) {
    result = { ok: false, output: call.decided.message, durationMs: 0 }
  } else {
    const toolContext = ctx.toolContext({ handle, toolName: call.toolName })
    const approved = call.decided?.approved === true
    result = await runTool(def, call.input, approved ? { ...toolContext, authorize: async () => ({ ok: true as const }) } : toolContext)
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
  return result.ok && result.metadata?.endsTurn === true
}
