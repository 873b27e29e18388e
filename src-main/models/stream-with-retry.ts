import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { abortError, anySignal, isAbortError, raceAbort, sleep } from './abort'
import { rejectedKeyError } from './api-key'
import { classifyError, describeError, retryAfterMs, statusOf } from './error-kind'
import { ModelAuthError, ModelConfigError, ModelStreamError } from './errors'

export interface RetryHooks {
  /** Called before each wait; the session shows `retrying` with this info. */
  onRetry(info: { attempt: number; delayMs: number; error: string }): void
  signal: AbortSignal
  /** Retries after the first attempt (default 3). */
  maxRetries?: number
  /** First backoff wait; each later one is 4× longer (default 200 ms). Tests make it tiny. */
  baseDelayMs?: number
  /** Longest Retry-After we honour (default 10 s). */
  maxRetryAfterMs?: number
}

type Reader = ReadableStreamDefaultReader<LanguageModelV4StreamPart>

/** Parts that carry no answer yet; an error before any other part can still be retried. */
const PRELUDE = new Set(['stream-start', 'response-metadata', 'raw', 'ping'])

type Start = { ok: true; buffered: LanguageModelV4StreamPart[]; reader: Reader } | { ok: false; error: unknown }

/** Reads until the first content part, so errors that arrive before any content can be retried. */
async function readUntilContent(stream: ReadableStream<LanguageModelV4StreamPart>, signal: AbortSignal): Promise<Start> {
  const reader = stream.getReader()
  const buffered: LanguageModelV4StreamPart[] = []
  try {
    for (;;) {
      const { done, value } = await raceAbort(reader.read(), signal)
      if (done) return { ok: true, buffered, reader }
      if (value.type === 'error') {
        void reader.cancel().catch(() => undefined) // the attempt is over; a failing cancel changes nothing
        return { ok: false, error: value.error }
      }
      buffered.push(value)
      if (!PRELUDE.has(value.type)) return { ok: true, buffered, reader }
    }
  } catch (e) {
    void reader.cancel().catch(() => undefined) // as above
    return { ok: false, error: e }
  }
}

/** Forwards the rest of the stream; a failure now (content already shown) is final. */
function guardStream(start: { buffered: LanguageModelV4StreamPart[]; reader: Reader }, provider: string, signal: AbortSignal) {
  const { reader } = start
  const fail = (error: unknown): Error => {
    if (isAbortError(error) || signal.aborted) return abortError(signal)
    if (ModelAuthError.isInstance(error) || ModelStreamError.isInstance(error)) return error
    return new ModelStreamError(`provider "${provider}" stream failed mid-answer: ${describeError(error)}. Try again.`, {
      provider,
      statusCode: statusOf(error),
      transient: classifyError(error) === 'transient',
      cause: error,
    })
  }
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      for (const part of start.buffered) controller.enqueue(part)
    },
    async pull(controller) {
      try {
        const { done, value } = await raceAbort(reader.read(), signal)
        if (done) return controller.close()
        if (value.type === 'error') throw value.error
        controller.enqueue(value)
      } catch (e) {
        controller.error(fail(e))
        void reader.cancel().catch(() => undefined) // the stream is already failed; nothing more to report
      }
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}

/**
 * Calls `model.doStream`, retrying transient failures (429, 5xx, network) that happen before
 * the first content part. Resolves with a stream that errors with ModelStreamError if the
 * provider fails later, or with an AbortError when `hooks.signal` fires.
 */
export async function streamWithRetry(
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions,
  hooks: RetryHooks,
): Promise<ReadableStream<LanguageModelV4StreamPart>> {
  const signal = anySignal(options.abortSignal, hooks.signal) ?? hooks.signal
  const maxRetries = hooks.maxRetries ?? 3
  const baseDelayMs = hooks.baseDelayMs ?? 200
  const maxRetryAfterMs = hooks.maxRetryAfterMs ?? 10_000
  const provider = model.provider

  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw abortError(signal)
    let failure: unknown
    try {
      const pending = Promise.resolve(model.doStream({ ...options, abortSignal: signal }))
      // If abort wins the race, a stream that still arrives must not be left open.
      pending.then(
        (r) => {
          if (signal.aborted) void r.stream.cancel().catch(() => undefined) // best effort; the caller already has its AbortError
        },
        () => undefined, // the same rejection is handled by raceAbort below
      )
      const result = await raceAbort(pending, signal)
      const start = await readUntilContent(result.stream, signal)
      if (start.ok) return guardStream(start, provider, signal)
      failure = start.error
    } catch (e) {
      failure = e
    }

    if (signal.aborted || isAbortError(failure)) throw abortError(signal)
    if (ModelAuthError.isInstance(failure) || ModelConfigError.isInstance(failure) || ModelStreamError.isInstance(failure)) {
      throw failure
    }
    const kind = classifyError(failure)
    const status = statusOf(failure)
    if (kind === 'auth') throw rejectedKeyError(provider, status ?? 401, { source: 'none', envName: undefined }, failure)
    if (kind === 'transient' && attempt < maxRetries) {
      const asked = retryAfterMs(failure)
      const delayMs = asked !== undefined ? Math.min(asked, maxRetryAfterMs) : baseDelayMs * 4 ** attempt
      hooks.onRetry({ attempt: attempt + 1, delayMs, error: describeError(failure) })
      await sleep(delayMs, signal)
      continue
    }
    const tries = attempt + 1
    const message =
      kind === 'transient'
        ? `provider "${provider}" failed after ${tries} attempts: ${describeError(failure)}. Try again later.`
        : `provider "${provider}" failed: ${describeError(failure)}`
    throw new ModelStreamError(message, { provider, statusCode: status, transient: kind === 'transient', cause: failure })
  }
}
