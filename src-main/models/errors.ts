/**
 * Errors that leave the models folder. Each has a stable `name` and an `isInstance` check
 * based on a global symbol, so it still works when two copies of this module are bundled
 * (e.g. Electron main and the CLI) and `instanceof` would fail.
 */

const authMarker = Symbol.for('agentry.models.ModelAuthError')
const configMarker = Symbol.for('agentry.models.ModelConfigError')
const streamMarker = Symbol.for('agentry.models.ModelStreamError')

function hasMarker(e: unknown, marker: symbol): boolean {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[marker] === true
}

/** The provider has no key, or rejected it (401/403). Retrying will not help; the user must act. */
export class ModelAuthError extends Error {
  readonly [authMarker] = true
  override readonly name = 'ModelAuthError'
  readonly provider: string
  readonly statusCode: number | undefined

  constructor(message: string, opts: { provider: string; statusCode?: number; cause?: unknown }) {
    super(message, { cause: opts.cause })
    this.provider = opts.provider
    this.statusCode = opts.statusCode
  }

  static isInstance(e: unknown): e is ModelAuthError {
    return hasMarker(e, authMarker)
  }
}

/** A model ref, provider entry or script file is wrong; the message says which and how to fix it. */
export class ModelConfigError extends Error {
  readonly [configMarker] = true
  override readonly name = 'ModelConfigError'

  constructor(message: string, opts: { cause?: unknown } = {}) {
    super(message, { cause: opts.cause })
  }

  static isInstance(e: unknown): e is ModelConfigError {
    return hasMarker(e, configMarker)
  }
}

/** The provider failed: retries exhausted, a non-retryable status, or the stream broke mid-way. */
export class ModelStreamError extends Error {
  readonly [streamMarker] = true
  override readonly name = 'ModelStreamError'
  readonly provider: string
  readonly statusCode: number | undefined
  /** Whether the failure was of a transient kind (the user may simply try again later). */
  readonly transient: boolean

  constructor(message: string, opts: { provider: string; statusCode?: number; transient?: boolean; cause?: unknown }) {
    super(message, { cause: opts.cause })
    this.provider = opts.provider
    this.statusCode = opts.statusCode
    this.transient = opts.transient ?? false
  }

  static isInstance(e: unknown): e is ModelStreamError {
    return hasMarker(e, streamMarker)
  }
}
