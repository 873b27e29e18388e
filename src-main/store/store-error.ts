/** Stable codes so callers (host, CLI, bridge) can branch without parsing messages. */
export type StoreErrorCode =
  | 'newer_schema'
  | 'corrupt'
  | 'open_failed'
  | 'not_found'
  | 'invalid_input'
  | 'write_failed'
  | 'closed'

const MARKER = Symbol.for('agentry.store.error')

export class StoreError extends Error {
  override readonly name = 'StoreError'
  readonly code: StoreErrorCode
  readonly [MARKER] = true

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }

  /** Works across duplicated bundles, where `instanceof` would not. */
  static isInstance(value: unknown): value is StoreError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true
  }
}
