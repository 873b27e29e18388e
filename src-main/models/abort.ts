/** Abort helpers shared by the retry loop and the offline models. */

/** The error every abort surfaces as, matching what `fetch` throws, so callers check one `name`. */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason
  if (reason instanceof Error && reason.name === 'AbortError') return reason
  const message = typeof reason === 'string' ? reason : 'The operation was aborted.'
  return new DOMException(message, 'AbortError')
}

export function isAbortError(e: unknown): boolean {
  return (e instanceof Error || e instanceof DOMException) && (e.name === 'AbortError' || e.name === 'ResponseAborted')
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal)
}

/** Resolves after `ms`, or rejects with an AbortError as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal))
    if (ms <= 0) return resolve()
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortError(signal))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** One signal that fires when any of the given ones does (undefined entries are skipped). */
export function anySignal(...signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined)
  if (present.length === 0) return undefined
  if (present.length === 1) return present[0]
  return AbortSignal.any(present)
}

/**
 * Settles with `promise`, or rejects with an AbortError as soon as `signal` fires. `promise` is always handled, even
 * when the signal has already fired: a read of a stream that errors later must not become an unhandled rejection
 * (which would end the whole host).
 */
export function raceAbort<T>(promise: PromiseLike<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortError(signal))
    Promise.resolve(promise).then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
  })
}
