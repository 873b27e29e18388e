import { foldEvent, NotifyPolicy, type HostApi, type SubscriptionMessage } from '../../src-shared'

export interface NotificationText {
  title: string
  body: string
}

/**
 * The desktop app's OS notifications, from the host's feed of every session: what to say and when is the shared
 * NotifyPolicy's (src-shared/notify-policy.ts), as in the browser app — once per decision that waits on the person,
 * at any depth, and when a conversation's run of 30 s or more ends — while `shouldNotify()` (the window is unfocused).
 * The snapshot a subscription starts with is what is already waiting: remembered, not announced. Returns a disposer.
 */
export function watchForNotifications(
  api: HostApi,
  options: { shouldNotify: () => boolean; notify: (text: NotificationText, rootSessionId: string) => void },
): () => void {
  const policy = new NotifyPolicy()
  const say = (n: { title: string; body: string; rootSessionId: string } | null) => n && options.notify({ title: n.title, body: n.body }, n.rootSessionId)
  return api.subscribe({ sessionId: 'all', afterSeq: 0 }, (m: SubscriptionMessage) => {
    if (m.kind === 'snapshot') {
      policy.approvals(m.approvals, { focused: true, snapshot: true })
      return
    }
    if (m.kind !== 'event') return
    const focused = !options.shouldNotify()
    const { leaf: e, agents } = foldEvent(m.event.event)
    const root = m.event.stream
    if (e.type === 'tool_approval_required') for (const n of policy.approvals([e.approval], { focused })) say(n)
    else if (e.type === 'tool_approval_resolved') policy.resolved(e.approvalId)
    else if (agents.length > 0) return
    else if (e.type === 'status_change' && e.sessionId === root) policy.rootStatus(root, e.status, e.at)
    else if (e.type === 'turn_complete' && e.sessionId === root) say(policy.turnComplete(root, e, focused))
  })
}
