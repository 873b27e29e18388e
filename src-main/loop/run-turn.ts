import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4ProviderTool, LanguageModelV4StreamPart } from '@ai-sdk/provider'
import type { AgentEvent, AgentInfo, PartRecord, SessionStatus, TokenUsage } from '../../src-shared'
import { ModelStreamError, streamWithRetry } from '../models'
import { newId } from '../store'
import { abortReasonOf, toolJsonSchema, type ToolDef } from '../tools'
import { awaitsAnswer, buildPrompt, markCacheBreakpoints } from './prompt'
import { RepeatedCalls, RequestGuard, RunawayError } from './runaway'
import { beginStep, endStep } from './step-gate'
import { haltNotice, startHooks, stopHooks } from './turn-hooks'
import { executeToolCalls, type PendingCall, type LoopHooks, type ToolContextFactory } from './tool-calls'
import { appendErrorMessage, appendTextMessage, type Transcript } from './transcript'

export type FinishReason = 'stop' | 'max_steps' | 'aborted' | 'error' | 'budget'

export interface RunContext {
  agent: AgentInfo
  model: LanguageModelV4
  transcript: Transcript
  tools: ToolDef[]
  /** tools the provider runs itself (native web search): offered to the model, never executed here */
  providerTools?: LanguageModelV4ProviderTool[]
  system: string
  signal: AbortSignal
  maxSteps: number
  /** events of this run's session (sessionId = transcript.sessionId); the caller routes them */
  emit(event: AgentEvent): void
  setStatus(status: SessionStatus, reason?: string, retry?: { attempt: number; of: number; delayMs: number; error: string }): void
  toolContext: ToolContextFactory
  /** PreToolUse / PostToolUse hooks (issue 27); absent when none is configured */
  hooks?: LoopHooks
  /** the model takes images in tool results (else tools' images reach it only as the text that names them) */
  toolResultImages?: boolean
  /** the model takes images in user messages (a pasted screenshot) */
  images?: boolean
  /** why a tool the model called is not offered, when there is more to say than "unknown" (an MCP server needing trust) */
  unknownTool?(name: string): string | undefined
  /** metadata stamped on every assistant message (model, agent, …) */
  messageMetadata?: Record<string, unknown>
  /** called after every model step with that step's usage */
  onStep?(step: { index: number; usage: TokenUsage }): void
  /**
   * Asked before every model request — the safe point between steps, with no tool call half done: a reason to end
   * the turn here instead (a budget reached that the person did not extend). It may wait (for the person's answer).
   */
  beforeRequest?(): Promise<string | undefined> | string | undefined
  retryDelayMs?: number
  /** first-content and between-parts limits for each model request (defaults: 60 s / 120 s) */
  timeouts?: { firstByteMs: number; idleMs: number }
  /** a fork: how many prompt messages (system included) its parent's last request had, a prompt-cache breakpoint */
  cachePrefixLength?: number
  /** the most output tokens one request may produce, counted on our side (chars/4 of text, reasoning and tool input); past it the stream is cut */
  outputTokenCap?: number
  /** the longest one model request may run, from sending it to its last part (ms); past it the request fails */
  requestMs?: number
  /** the same tool call with the same arguments this many times in a row ends the turn with an error */
  repeatedCallLimit?: number
  /** messages sent to this run while it works (steering), taken between steps: never inside a tool call */
  inbox?: SteerInbox
}

/** Where a run's steering messages wait (the run registry's mailbox of its session). */
export interface SteerInbox {
  take(): { text: string; from: 'person' | 'agent' }[]
}

export interface TurnResult {
  /** the last text the model wrote in the turn (an earlier step's, when the last step wrote none) */
  text: string
  /** the last step's own text: empty when the turn ended without a final answer */
  finalText: string
  finishReason: FinishReason
  usage: TokenUsage
  steps: number
  error?: string
  lastMessageId: string | null
  /** prompt + answer tokens of the last step (the size of the conversation the model saw last) */
  contextTokens?: number
}

export const FINAL_ANSWER_NOTICE =
  'You have used all the tool steps allowed for this task. Tools are no longer available: answer now with what you have.'

/** Why a run was stopped, carried as the AbortSignal's reason so the model and the user see the real cause. */
export function abortReason(signal: AbortSignal): string {
  return abortReasonOf(signal) ?? 'aborted by user'
}

/**
 * The loop, one code path for every agent: stream the model, persist every chunk, run the step's tool calls,
 * repeat until the model stops calling tools, `maxSteps` is used up (then one forced answer without tools), or abort.
 */
export async function runTurn(ctx: RunContext): Promise<TurnResult> {
  const usage = emptyUsage()
  let steps = 0
  let lastText = ''
  let finalText = ''
  let lastMessageId: string | null = null
  let contextTokens: number | undefined
  const toolSpecs: LanguageModelV4CallOptions['tools'] = [
    ...ctx.tools.map((t) => ({ type: 'function' as const, name: t.name, description: t.description, inputSchema: toolJsonSchema(t) })),
    ...(ctx.providerTools ?? []),
  ]
  const repeats = new RepeatedCalls(ctx.repeatedCallLimit)
  let stopContinues = 0

  try {
    const blocked = await startHooks(ctx)
    if (blocked) return { text: '', finalText: '', finishReason: 'stop', usage, steps, lastMessageId, contextTokens }
    for (;;) {
      const finalStep = steps >= ctx.maxSteps
      // Before the step opens, so that what arrives while the person decides (a background result) is in its prompt.
      const stop = await ctx.beforeRequest?.()
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted')
      if (stop !== undefined) {
        appendErrorMessage(ctx.transcript, ctx.emit, 'budget', stop)
        return { text: lastText, finalText: '', finishReason: 'budget', usage, steps, error: stop, lastMessageId, contextTokens }
      }
      deliverSteering(ctx)
      beginStep(ctx.transcript)
      const prompt = buildPrompt(ctx.system, ctx.transcript.history(), { toolResultImages: ctx.toolResultImages, images: ctx.images })
      if (finalStep) prompt.push({ role: 'user', content: [{ type: 'text', text: FINAL_ANSWER_NOTICE }] })
      // Nothing new to answer (the conversation ends with the model's own message): no request is sent at all.
      if (!awaitsAnswer(prompt)) {
        endStep(ctx.transcript)
        return { text: lastText, finalText, finishReason: 'stop', usage, steps, lastMessageId, contextTokens }
      }

      markCacheBreakpoints(prompt, ctx.cachePrefixLength)
      // The request's own output and duration limits, from sending it (retries included) to its last part.
      const guard = new RequestGuard(ctx.signal, { provider: ctx.model.provider, outputTokenCap: ctx.outputTokenCap, requestMs: ctx.requestMs })
      const options: LanguageModelV4CallOptions = {
        prompt,
        tools: finalStep || toolSpecs.length === 0 ? undefined : toolSpecs,
        toolChoice: finalStep || toolSpecs.length === 0 ? undefined : { type: 'auto' },
        temperature: ctx.agent.temperature,
        topP: ctx.agent.topP,
        // Only the agent's own cap goes to the provider: a default sent to every provider would be refused by models
        // with a smaller output limit (gpt-4o: 16k) or context (vLLM). The runaway cap is enforced on our side.
        maxOutputTokens: ctx.agent.maxOutputTokens,
        abortSignal: guard.signal,
      }
      let step: StepResult
      try {
        let retried = false
        const stream = await streamWithRetry(ctx.model, options, {
          signal: guard.signal,
          baseDelayMs: ctx.retryDelayMs,
          firstByteMs: ctx.timeouts?.firstByteMs,
          idleMs: ctx.timeouts?.idleMs,
          onRetry: (info) => {
            retried = true
            ctx.setStatus('retrying', `retry ${info.attempt} in ${info.delayMs} ms: ${info.error}`, { attempt: info.attempt + 1, of: info.of, delayMs: info.delayMs, error: info.error })
          },
        })
        if (retried) ctx.setStatus('busy')
        step = await consumeStep(ctx, stream, steps, guard)
      } catch (err) {
        throw guard.failure(err)
      } finally {
        guard.dispose()
        endStep(ctx.transcript)
      }
      steps++
      addUsage(usage, step.usage)
      if (step.usage.total > 0) contextTokens = step.usage.prompt + step.usage.completion
      ctx.onStep?.({ index: steps, usage: step.usage })
      if (step.messageId) lastMessageId = step.messageId
      if (step.text) lastText = step.text
      finalText = step.text
      if (step.calls.length === 0 && !lastText.trim()) {
        // Nothing to show for the whole turn: said as a failure, never a silent success with no output.
        throw new ModelStreamError(`provider "${ctx.model.provider}" returned an empty answer (no text and no tool calls). Try again, or pick another model.`, { provider: ctx.model.provider })
      }
      // A message that came while the model wrote its answer is read now rather than handed back undelivered.
      if (step.calls.length === 0 && !finalStep && deliverSteering(ctx)) continue
      // A Stop hook may send the model back to work with its reason — a bounded number of times.
      if (step.calls.length === 0 && !finalStep && (await stopHooks(ctx, step.text, stopContinues))) {
        stopContinues++
        continue
      }
      if (step.calls.length === 0 || finalStep) {
        return { text: lastText, finalText, finishReason: finalStep ? 'max_steps' : 'stop', usage, steps, lastMessageId, contextTokens }
      }
      const repeated = repeats.record(step.calls.map((c) => ({ toolName: c.toolName, input: c.inputError ? c.part.data.input : c.input })))
      if (repeated !== undefined) {
        // None of the step's calls runs; each gets an error result, so every call in the transcript has its result.
        const message = `Not run: ${repeated.replace(/^stopped: it/, 'you')}.`
        await executeToolCalls(ctx, step.calls.map((c) => ({ ...c, decided: { approved: false, message } })))
        appendErrorMessage(ctx.transcript, ctx.emit, 'runaway', repeated)
        return { text: lastText, finalText: '', finishReason: 'error', usage, steps, error: repeated, lastMessageId, contextTokens }
      }
      const { endsTurn, halt } = await executeToolCalls(ctx, step.calls)
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted')
      if (halt !== undefined) {
        haltNotice(ctx, halt)
        return { text: lastText, finalText: '', finishReason: 'stop', usage, steps, lastMessageId, contextTokens }
      }
      if (endsTurn) return { text: lastText, finalText: step.text, finishReason: 'stop', usage, steps, lastMessageId, contextTokens }
    }
  } catch (err) {
    // A request that failed before its answer was read ends its step too (messages waiting for it are stored).
    endStep(ctx.transcript)
    if (ctx.signal.aborted) {
      return { text: lastText, finalText: '', finishReason: 'aborted', usage, steps, error: abortReason(ctx.signal), lastMessageId, contextTokens }
    }
    const message = err instanceof Error ? err.message : String(err)
    appendErrorMessage(ctx.transcript, ctx.emit, errorCode(err), message)
    return { text: lastText, finalText: '', finishReason: 'error', usage, steps, error: message, lastMessageId, contextTokens }
  }
}

/** Adds the messages waiting for this run to its conversation, as their sender's; true when there were any. */
function deliverSteering(ctx: RunContext): boolean {
  const messages = ctx.inbox?.take() ?? []
  for (const m of messages) appendTextMessage(ctx.transcript, ctx.emit, 'user', m.text, { steered: m.from })
  return messages.length > 0
}

interface StepResult {
  messageId: string | null
  text: string
  calls: PendingCall[]
  usage: TokenUsage
}

/** Reads one model response, persisting the assistant message on its first chunk and every part as it grows. */
async function consumeStep(ctx: RunContext, stream: ReadableStream<LanguageModelV4StreamPart>, stepIndex: number, guard: RequestGuard): Promise<StepResult> {
  const sessionId = ctx.transcript.sessionId
  let messageId: string | null = null
  let nextIndex = 0
  const open = new Map<string, PartRecord>() // stream block id → part
  const calls: PendingCall[] = []
  const texts: string[] = []
  let usage = emptyUsage()

  const ensureMessage = (): string => {
    if (messageId) return messageId
    const message = ctx.transcript.createMessage('assistant', { ...ctx.messageMetadata, agent: ctx.agent.name, step: stepIndex + 1 })
    messageId = message.id
    ctx.emit({ type: 'message_created', sessionId, at: Date.now(), message })
    return messageId
  }
  const newPart = (type: string, data: Record<string, unknown>, toolCallId: string | null = null): PartRecord => ({
    id: newId('prt'),
    messageId: ensureMessage(),
    sessionId,
    index: nextIndex++,
    type,
    data,
    toolCallId,
    toolState: toolCallId ? 'input-streaming' : null,
  })

  const reader = stream.getReader()
  try {
    for (;;) {
      const { done, value: chunk } = await reader.read()
      if (done) break
      switch (chunk.type) {
        case 'text-start':
        case 'reasoning-start': {
          const part = newPart(chunk.type === 'text-start' ? 'text' : 'reasoning', { text: '' })
          open.set(`${chunk.type.split('-')[0]}:${chunk.id}`, part)
          ctx.transcript.upsertPart(part)
          break
        }
        case 'text-delta':
        case 'reasoning-delta': {
          const kind = chunk.type === 'text-delta' ? 'text' : 'reasoning'
          let part = open.get(`${kind}:${chunk.id}`)
          if (!part) {
            part = newPart(kind, { text: '' })
            open.set(`${kind}:${chunk.id}`, part)
          }
          part.data = { text: String(part.data.text) + chunk.delta }
          ctx.transcript.upsertPart(part)
          ctx.emit({ type: 'content_delta', sessionId, at: Date.now(), messageId: part.messageId, partId: part.id, partType: kind, delta: chunk.delta })
          break
        }
        case 'text-end': {
          const part = open.get(`text:${chunk.id}`)
          if (part) texts.push(String(part.data.text))
          break
        }
        case 'tool-input-start': {
          const part = newPart(`tool-${chunk.toolName}`, { input: null, ...(chunk.providerExecuted ? { providerExecuted: true } : {}) }, chunk.id)
          open.set(`tool:${chunk.id}`, part)
          ctx.transcript.upsertPart(part)
          break
        }
        case 'tool-call': {
          let part = open.get(`tool:${chunk.toolCallId}`)
          if (!part) {
            part = newPart(`tool-${chunk.toolName}`, { input: null }, chunk.toolCallId)
            open.set(`tool:${chunk.toolCallId}`, part)
          }
          const parsed = parseInput(chunk.input)
          part.data = { input: parsed.ok ? parsed.value : chunk.input, ...(chunk.providerExecuted ? { providerExecuted: true } : {}) }
          part.toolState = 'input-available'
          ctx.transcript.upsertPart(part)
          ctx.emit({
            type: 'tool_call_start',
            sessionId,
            at: Date.now(),
            messageId: part.messageId,
            partId: part.id,
            toolCallId: chunk.toolCallId,
            toolName: chunk.toolName,
            input: part.data.input,
          })
          // The provider runs its own tools (native web search); its result arrives in this same stream.
          if (!chunk.providerExecuted) calls.push({ part, toolName: chunk.toolName, input: parsed.ok ? parsed.value : undefined, inputError: parsed.ok ? undefined : parsed.error })
          break
        }
        case 'tool-result': {
          const part = open.get(`tool:${chunk.toolCallId}`)
          if (!part || chunk.preliminary) break
          const output = providerResultText(chunk.result)
          const ok = chunk.isError !== true
          // `result` is kept as the provider sent it: it is replayed to the provider in later requests.
          part.data = { ...part.data, result: chunk.result, ...(ok ? { output } : { error: output }), endedAt: Date.now() }
          part.toolState = ok ? 'output-available' : 'output-error'
          ctx.transcript.upsertPart(part)
          ctx.emit({ type: 'tool_call_end', sessionId, at: Date.now(), messageId: part.messageId, partId: part.id, toolCallId: chunk.toolCallId, toolName: chunk.toolName, ok, output, durationMs: 0 })
          break
        }
        case 'finish':
          usage = fromModelUsage(chunk.usage)
          break
        case 'error':
          throw chunk.error instanceof Error ? chunk.error : new Error(describe(chunk.error))
        default:
          break
      }
      // After the part is stored: a cut answer keeps all it streamed.
      guard.count(chunk)
    }
  } finally {
    reader.releaseLock()
  }
  // Text blocks without an explicit end still count as the answer.
  const text = texts.length
    ? texts.join('')
    : [...open.values()].filter((p) => p.type === 'text').map((p) => String(p.data.text)).join('')
  if (messageId) ctx.transcript.updateMessageMetadata(messageId, { usage })
  return { messageId, text, calls, usage }
}

/** What the person (and a later model) reads of a provider tool's result: search results as `title — url` lines. */
function providerResultText(result: unknown): string {
  if (Array.isArray(result)) {
    const lines = result
      .map((r) => (r && typeof r === 'object' ? (r as { title?: unknown; url?: unknown }) : {}))
      .filter((r) => typeof r.url === 'string')
      .map((r) => `${typeof r.title === 'string' ? r.title : r.url} — ${r.url}`)
    if (lines.length) return lines.join('\n')
  }
  return typeof result === 'string' ? result : JSON.stringify(result)
}

function parseInput(raw: unknown): { ok: true; value: unknown } | { ok: false; error: string } {
  if (typeof raw !== 'string') return { ok: true, value: raw ?? {} }
  if (raw.trim() === '') return { ok: true, value: {} }
  try {
    return { ok: true, value: JSON.parse(raw) }
  } catch (err) {
    return { ok: false, error: `the arguments were not valid JSON (${(err as Error).message}); send a JSON object` }
  }
}

function describe(e: unknown): string {
  if (e && typeof e === 'object' && 'message' in e) return String((e as { message: unknown }).message)
  return typeof e === 'string' ? e : JSON.stringify(e)
}

/** The `error` event code for a failure: model auth, config and provider-side problems get their own, so clients can say what to fix. */
export function errorCode(err: unknown, otherwise = 'model_error'): string {
  const name = err instanceof Error ? err.name : ''
  if (name === 'ModelAuthError') return 'model_auth'
  if (name === 'ModelConfigError') return 'model_config'
  // The provider's side (5xx, 429, timeouts, the network), still failing after the retries: not the person's settings.
  if (ModelStreamError.isInstance(err) && err.transient) return 'model_unavailable'
  if (err instanceof RunawayError) return 'runaway'
  return otherwise
}

export function emptyUsage(): TokenUsage {
  return { prompt: 0, completion: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0, total: 0 }
}

export function addUsage(into: TokenUsage, add: TokenUsage): void {
  into.prompt += add.prompt
  into.completion += add.completion
  into.reasoning += add.reasoning
  into.cacheRead += add.cacheRead
  into.cacheWrite += add.cacheWrite
  into.total += add.total
}

function fromModelUsage(u: { inputTokens: { total?: number; cacheRead?: number; cacheWrite?: number }; outputTokens: { total?: number; reasoning?: number } }): TokenUsage {
  const prompt = u.inputTokens.total ?? 0
  const completion = u.outputTokens.total ?? 0
  return {
    prompt,
    completion,
    reasoning: u.outputTokens.reasoning ?? 0,
    cacheRead: u.inputTokens.cacheRead ?? 0,
    cacheWrite: u.inputTokens.cacheWrite ?? 0,
    total: prompt + completion,
  }
}
