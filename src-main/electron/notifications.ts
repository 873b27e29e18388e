import { foldEvent, type AgentEvent, type SubscriptionMessage, type HostApi } from '../../src-shared'

export interface NotificationText {
  title: string
  body: string
}

/**
 * What a desktop user wants to hear about while looking elsewhere: their run ended, or an agent (at any depth)
 * waits for an approval. Subagent turns ending are not news; the root's is.
 */
export function notificationFor(e: AgentEvent): NotificationText | undefined {
  const { leaf: event, agents: path } = foldEvent(e)
  if (event.type === 'tool_approval_required') {
    const { agentPath, toolName } = event.approval
    const who = agentPath.length > 0 ? agentPath.join(' › ') : (path.at(-1) ?? 'The agent')
    return { title: 'Approval needed', body: `${who} wants to run ${toolName}.` }
  }
  if (event.type === 'turn_complete' && path.length === 0) {
    const title = {
      stop: 'Run finished',
      max_steps: 'Run stopped at the step limit',
      aborted: 'Run stopped',
      error: 'Run failed',
      budget: 'Run stopped at its budget',
    }[event.finishReason]
    const text = event.text.trim().replace(/\s+/g, ' ')
    return { title, body: text === '' ? 'Open Agentry to see the result.' : text.length > 140 ? `${text.slice(0, 139)}…` : text }
  }
  return undefined
}

/**
 * Watches every session and calls `notify` for events worth a notification while `shouldNotify()` (the window is
 * unfocused). Only live events count: the snapshot is skipped. Returns a disposer.
 */
export function watchForNotifications(
  api: HostApi,
  options: { shouldNotify: () => boolean; notify: (text: NotificationText, rootSessionId: string) => void },
): () => void {
  return api.subscribe({ sessionId: 'all', afterSeq: 0 }, (m: SubscriptionMessage) => {
    if (m.kind !== 'event' || !options.shouldNotify()) return
    const text = notificationFor(m.event.event)
    if (text) options.notify(text, m.event.stream)
  })
}
