import type { LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { ModelStreamError } from '../models'

/**
 * Guards against a model that does not stop by itself (issue 25): one request that writes without end or runs
 * without end, and a turn that repeats the same tool call. Each guard is off when its limit is not given.
 */

/** Output tokens, estimated as 4 characters each (the same rule as the prompt estimate): no tokenizer per provider. */
export function estimateOutputTokens(chars: number): number {
  return Math.ceil(chars / 4)
}

/**
 * Where a stream is cut, for a request capped at `cap` tokens. An agent's own `maxOutputTokens` is sent to the provider,
 * which normally stops there itself; the runaway default is not (models differ in what they accept), so this cut is
 * what ends a stream that never stops — and one from a server that ignores or miscounts the cap. Characters / 4 is only an
 * estimate (code, numbers and JSON run shorter per token), so the cut sits a quarter plus 512 tokens above the cap: a
 * legitimate answer the provider let through must never be cut. Text with more than 4 characters per token is cut
 * later than that, which costs only some wasted output.
 */
export function outputCutAt(cap: number): number {
  return Math.floor(cap * 1.25) + 512
}

/**
 * One model request's own limits, from sending it to its last part: its output (`outputTokenCap`) and its duration
 * (`requestMs`). Stopping the request aborts `signal` (the HTTP request goes with it) with the reason the turn
 * reports; `failure` turns what the stopped request threw (an AbortError, a broken stream) into that reason.
 */
export class RequestGuard {
  /** for the request: the run's signal, plus this request's own stop when it has a limit */
  readonly signal: AbortSignal
  private readonly stop = new AbortController()
  private readonly timer: NodeJS.Timeout | undefined
  private chars = 0

  constructor(
    runSignal: AbortSignal,
    private readonly limits: { provider: string; outputTokenCap?: number; requestMs?: number },
  ) {
    const guarded = limits.outputTokenCap !== undefined || limits.requestMs !== undefined
    // Without limits the request runs on the run's own signal, exactly as it did before these guards.
    this.signal = guarded ? AbortSignal.any([runSignal, this.stop.signal]) : runSignal
    const { requestMs } = limits
    if (requestMs !== undefined) {
      this.timer = setTimeout(
        () => this.halt(`the model's answer took longer than ${seconds(requestMs)} (runaway.requestSeconds in config.yaml); it was stopped`),
        requestMs,
      )
    }
  }

  /**
   * Counts a part's output (text, reasoning and tool input as they stream). Throws the stop's error, with the
   * request already aborted, once the estimate passes the cut; what was stored of the answer stays.
   */
  count(part: LanguageModelV4StreamPart): void {
    const cap = this.limits.outputTokenCap
    if (cap === undefined) return
    if (part.type !== 'text-delta' && part.type !== 'reasoning-delta' && part.type !== 'tool-input-delta') return
    this.chars += part.delta.length
    const tokens = estimateOutputTokens(this.chars)
    if (tokens <= outputCutAt(cap)) return
    this.halt(
      `the model kept writing past its output limit (~${tokens} tokens, limit ${cap}: the agent's maxOutputTokens, else runaway.maxOutputTokens in config.yaml); its answer was cut`,
    )
    throw this.stop.signal.reason as Error
  }

  /** What a failure of the request means: this guard's error when the guard stopped it, else `err` as it is. */
  failure(err: unknown): unknown {
    return this.stop.signal.aborted ? this.stop.signal.reason : err
  }

  /** The request is over (answered or failed): its timer must not fire into a later one. */
  dispose(): void {
    clearTimeout(this.timer)
  }

  private halt(message: string): void {
    if (this.stop.signal.aborted) return
    // Not transient: the same request would run away again, so nothing retries it.
    this.stop.abort(new RunawayError(message, { provider: this.limits.provider }))
  }
}

/** A request a runaway guard stopped: a model failure of its own kind (`runaway`), so clients can tell it from an outage. */
export class RunawayError extends ModelStreamError {
  readonly runaway = true
}

/**
 * The same tool call with the same arguments, over and over: a model stuck in a loop. Counts consecutive calls by
 * signature across the turn's steps, in the order the model made them; any other call in between starts over.
 */
/** Tools whose purpose is to be called again with the same arguments (waiting on a session): never a loop. */
const WAITING_TOOLS = new Set(['sessions_wait'])

export class RepeatedCalls {
  private last: string | undefined
  private count = 0

  constructor(private readonly limit: number | undefined) {}

  /**
   * Records a step's calls. Returns the reason to stop when one of them makes `limit` identical calls in a row
   * (the caller runs none of the step's calls then), else undefined.
   */
  record(calls: { toolName: string; input: unknown }[]): string | undefined {
    if (this.limit === undefined) return undefined
    let stop: string | undefined
    for (const call of calls) {
      if (WAITING_TOOLS.has(call.toolName)) continue
      const signature = `${call.toolName} ${stableJson(call.input)}`
      this.count = signature === this.last ? this.count + 1 : 1
      this.last = signature
      if (this.count >= this.limit && stop === undefined) {
        stop = `stopped: it called ${call.toolName} with the same arguments ${this.count} times in a row (runaway.repeatedCalls in config.yaml); change the approach or ask for help`
      }
    }
    return stop
  }
}

/** JSON with every object's keys sorted, so `{a, b}` and `{b, a}` are the same arguments. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  ) ?? 'undefined'
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}
