import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { abortError, anySignal, isAbortError, raceAbort, sleep } from './abort'
import { rejectedKeyError } from './api-key'
import { classifyError, describeError, retryAfterMs, statusOf } from './error-kind'
import { ModelAuthError, ModelConfigError, ModelStreamError } from './errors'

export interface RetryHooks {
  /** Called before each wait; the session shows `retrying` with this info. */
  /** `attempt`: the retry about to be made (1 = the second request); `of`: how many requests there may be in all */
  onRetry(info: { attempt: number; of: number; delayMs: number; error: string }): void
  signal: AbortSignal
  /** Retries after the first attempt (default 3). */
  maxRetries?: number
  /** First backoff wait; each later one is 4× longer (default 200 ms). Tests make it tiny. */
  baseDelayMs?: number
  /** Longest Retry-After we honour (default 10 s). */
  maxRetryAfterMs?: number
  /**
   * How long an attempt may wait for the provider's first content part (default 60 s). A server that never
   * answers, or answers headers and then nothing, fails the attempt as a transient error (retried).
   */
  firstByteMs?: number
  /** Longest silence between two parts once the answer has started (default 120 s): a stalled stream fails. */
  idleMs?: number
}

export const DEFAULT_FIRST_BYTE_MS = 60_000
export const DEFAULT_IDLE_MS = 120_000

/** An attempt ran out of time: transient like a network error, and named in the final message. */
class ModelTimeout extends Error {
  override readonly name = 'ModelTimeout'
  constructor(
    message: string,
    readonly setting: string,
  ) {
    super(message)
  }
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
function guardStream(
  start: { buffered: LanguageModelV4StreamPart[]; reader: Reader },
  provider: string,
  signal: AbortSignal,
  idle: { ms: number; cancelAttempt(reason: Error): void },
) {
  const { reader } = start
  const fail = (error: unknown): Error => {
    // Checked first: a stall cancels the attempt, which must not read as the person's abort.
    if (ModelAuthError.isInstance(error) || ModelStreamError.isInstance(error)) return error
    if (isAbortError(error) || signal.aborted) return abortError(signal)
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
      let timer: NodeJS.Timeout | undefined
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new ModelStreamError(
            `provider "${provider}" stopped sending mid-answer: nothing for ${seconds(idle.ms)} (timeouts.idleSeconds in config.yaml). The partial answer is kept; try again.`,
            { provider, transient: true },
          )
          reject(error)
          idle.cancelAttempt(error)
        }, idle.ms)
      })
      try {
        const { done, value } = await Promise.race([raceAbort(reader.read(), signal), stalled])
        if (done) return controller.close()
        if (value.type === 'error') throw value.error
        controller.enqueue(value)
      } catch (e) {
        controller.error(fail(e))
        void reader.cancel().catch(() => undefined) // the stream is already failed; nothing more to report
      } finally {
        clearTimeout(timer)
      }
    },
    cancel(reason) {
      return reader.cancel(reason)
    },
  })
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
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
  const firstByteMs = hooks.firstByteMs ?? DEFAULT_FIRST_BYTE_MS
  const idleMs = hooks.idleMs ?? DEFAULT_IDLE_MS
  const provider = model.provider

  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw abortError(signal)
    let failure: unknown
    // Each attempt has its own signal, so a timed-out request is cancelled without aborting the run.
    const attemptController = new AbortController()
    const attemptSignal = AbortSignal.any([signal, attemptController.signal])
    const firstByte = setTimeout(() => {
      attemptController.abort(
        new ModelTimeout(`provider "${provider}" did not start answering within ${seconds(firstByteMs)}`, 'timeouts.firstByteSeconds'),
      )
    }, firstByteMs)
    try {
      const pending = Promise.resolve(model.doStream({ ...options, abortSignal: attemptSignal }))
      // If abort wins the race, a stream that still arrives must not be left open.
      pending.then(
        (r) => {
          if (attemptSignal.aborted) void r.stream.cancel().catch(() => undefined) // best effort; the caller already has its AbortError
        },
        () => undefined, // the same rejection is handled by raceAbort below
      )
      const result = await raceAbort(pending, attemptSignal)
      const start = await readUntilContent(result.stream, attemptSignal)
      clearTimeout(firstByte)
      if (start.ok) {
        return guardStream(start, provider, attemptSignal, { ms: idleMs, cancelAttempt: (reason) => attemptController.abort(reason) })
      }
      failure = start.error
    } catch (e) {
      failure = e
    } finally {
      clearTimeout(firstByte)
    }
    const timedOut = !signal.aborted && attemptController.signal.reason instanceof ModelTimeout ? (attemptController.signal.reason as ModelTimeout) : undefined
    if (timedOut) {
      if (attempt < maxRetries) {
        const delayMs = baseDelayMs * 4 ** attempt
        hooks.onRetry({ attempt: attempt + 1, of: maxRetries + 1, delayMs, error: timedOut.message })
        await sleep(delayMs, signal)
        continue
      }
      throw new ModelStreamError(
        `${timedOut.message} (${timedOut.setting} in config.yaml), ${attempt + 1} attempts. Check that the server is up, or raise the timeout.`,
        { provider, transient: true, cause: timedOut },
      )
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
      hooks.onRetry({ attempt: attempt + 1, of: maxRetries + 1, delayMs, error: describeError(failure) })
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
