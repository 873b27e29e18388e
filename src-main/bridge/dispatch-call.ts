import { BridgeCalls, clip, HostError, type BridgeCallName, type BridgeError, type CallResult, type HostApi } from '../../src-shared'
import { describeIssues } from './describe-issues'

export interface DispatchOptions {
  /**
   * Parse the host's output against the contract before returning it. Off by default (it costs time on every
   * call and the host is ours); the tests and `--debug` turn it on, so a host that drifts from the contract fails
   * there — through this same code path.
   */
  validateOutput?: boolean
}

export function isBridgeCallName(name: unknown): name is BridgeCallName {
  // Own keys only: `toString` or `__proto__` must not look like calls.
  return typeof name === 'string' && Object.hasOwn(BridgeCalls, name)
}

/**
 * The one door from any transport into the host: checks the call name, parses the input with the call's schema,
 * runs it and turns every outcome into a `CallResult`. It never throws and never rejects.
 */
export async function dispatchCall(
  api: HostApi,
  name: unknown,
  input: unknown,
  options: DispatchOptions = {},
): Promise<CallResult<unknown>> {
  if (!isBridgeCallName(name)) {
    const shown = typeof name === 'string' ? JSON.stringify(clip(name, 80)) : `a ${describeType(name)}`
    return fail('invalid_request', `Unknown bridge call ${shown}. Known calls: ${Object.keys(BridgeCalls).join(', ')}.`)
  }
  const spec = BridgeCalls[name]
  const parsed = spec.input.safeParse(input)
  if (!parsed.success) return fail('invalid_request', describeIssues(`Invalid input for "${name}"`, parsed.error.issues, input, spec.input))

  let data: unknown
  try {
    // The table is keyed by name, so the pairing of method and parsed input is right by construction;
    // TypeScript cannot see that through the union of names.
    const method = api.calls[name] as (input: unknown) => Promise<unknown>
    data = await method.call(api.calls, parsed.data)
  } catch (err) {
    return fromThrown(name, err)
  }

  if (options.validateOutput) {
    const checked = spec.output.safeParse(data)
    if (!checked.success) {
      const message = describeIssues(`Output of "${name}" does not match the contract`, checked.error.issues, data, spec.output, 'output')
      console.error(`[agentry] ${message}`)
      return fail('internal', message)
    }
  }
  return { ok: true, data }
}

function fromThrown(name: BridgeCallName, err: unknown): CallResult<never> {
  if (HostError.isInstance(err)) {
    const error: BridgeError = { code: err.code, message: err.message }
    if (err.data !== undefined) error.data = err.data
    return { ok: false, error }
  }
  // Unexpected: the stack goes to stderr for whoever runs the host; the renderer gets a message without internals.
  console.error(`[agentry] bridge call "${name}" failed unexpectedly:`, err instanceof Error ? (err.stack ?? err.message) : err)
  return fail('internal', `"${name}" failed because of an internal error in the host. The details are in the host's log (stderr).`)
}

function fail(code: BridgeError['code'], message: string): CallResult<never> {
  return { ok: false, error: { code, message } }
}

function describeType(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  return typeof v
}
