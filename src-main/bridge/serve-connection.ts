import type { HostApi } from '../../src-shared'
import { ClientMessage, WireId, type BridgeConnection, type HostMessage } from '../../src-shared/bridge-protocol'
import { dispatchCall, type DispatchOptions } from './dispatch-call'
import { describeIssues } from './describe-issues'
import { SubscriptionSet } from './subscription-set'

export interface ServeOptions extends DispatchOptions {
  /** Where protocol violations are reported (default: stderr, rate-limited). */
  log?: (line: string) => void
}

/**
 * Speaks the wire protocol for one client over any `BridgeConnection`. Returns a disposer; closing the connection
 * disposes this client's subscriptions and nothing else.
 */
export function serveConnection(api: HostApi, conn: BridgeConnection<HostMessage>, options: ServeOptions = {}): () => void {
  const subs = new SubscriptionSet(api)
  const log = options.log ?? rateLimitedStderr()
  let closed = false

  const offMessage = conn.onMessage((raw) => {
    if (closed) return
    const parsed = ClientMessage.safeParse(raw)
    if (!parsed.success) {
      const id = idOf(raw)
      const message = describeIssues('Malformed bridge message', parsed.error.issues, raw, ClientMessage, 'message')
      // With an id the client can be told; without one there is nobody to answer, so it is logged.
      if (id !== undefined) conn.send({ t: 'result', id, result: { ok: false, error: { code: 'invalid_request', message } } })
      else log(`[agentry] dropped a bridge message without a usable id: ${message}`)
      return
    }
    const msg = parsed.data
    switch (msg.t) {
      case 'call':
        void dispatchCall(api, msg.name, msg.input, options).then((result) => {
          if (!closed) conn.send({ t: 'result', id: msg.id, result })
        })
        return
      case 'subscribe': {
        const result = subs.add(msg.id, msg.input, (m) => conn.send({ t: 'sub', id: msg.id, msg: m }))
        if (!result.ok) conn.send({ t: 'result', id: msg.id, result })
        return
      }
      case 'unsubscribe':
        subs.remove(msg.id)
        return
    }
  })

  const dispose = (): void => {
    if (closed) return
    closed = true
    offMessage()
    offClose()
    subs.disposeAll()
  }
  const offClose = conn.onClose(dispose)
  return dispose
}

function idOf(raw: unknown): WireId | undefined {
  if (typeof raw !== 'object' || raw === null || !('id' in raw)) return undefined
  const id = WireId.safeParse(raw.id)
  return id.success ? id.data : undefined
}

/** A misbehaving client must not be able to flood the host's log. */
function rateLimitedStderr(): (line: string) => void {
  let windowStart = 0
  let count = 0
  return (line) => {
    const now = Date.now()
    if (now - windowStart > 60_000) {
      windowStart = now
      count = 0
    }
    if (++count <= 5) console.error(line)
  }
}
