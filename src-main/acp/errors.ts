import { RequestError } from '@agentclientprotocol/sdk/unstable'
import { HostError } from '../../src-shared/host-api'

/**
 * A host's answer as a JSON-RPC error the editor can show: the host's own sentence (it says what to do), under the
 * code that fits — a missing session or folder is -32002, bad input -32602, a conflict -32600, the rest -32603.
 */
export function toRequestError(err: unknown): RequestError {
  if (err instanceof RequestError) return err
  if (HostError.isInstance(err)) {
    const data = { code: err.code }
    switch (err.code) {
      case 'not_found':
        return new RequestError(-32002, err.message, data)
      case 'invalid_request':
      case 'config_error':
        return new RequestError(-32602, err.message, data)
      case 'conflict':
        return new RequestError(-32600, err.message, data)
      default:
        return new RequestError(-32603, err.message, data)
    }
  }
  return new RequestError(-32603, err instanceof Error ? err.message : String(err))
}
