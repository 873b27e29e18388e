import type { AgentEvent, SubscriptionMessage, HostApi } from '../../src-shared'

export interface NotificationText {
  title: string
  body: string
}

/**
 * What a desktop user wants to hear about while looking elsewhere: their run ended, or an agent (at any depth)
 * waits for an approval. Subagent turns ending are not news; the root's is.
 */
export function notificationFor(event: AgentEvent, path: string[] = []): NotificationText | undefined {
  if (event.type === 'subagent_event') return notificationFor(event.event, [...path, event.agentType])
  if (event.type === 'tool_approval_required') {
    const who = event.agentPath.length > 0 ? event.agentPath.join(' › ') : (path.at(-1) ?? 'The agent')
    return { title: 'Approval needed', body: `${who} wants to run ${event.toolName}.` }
  }
  if (event.type === 'turn_complete' && path.length === 0) {
    const title = {
      stop: 'Run finished',
      max_steps: 'Run stopped at the step limit',
      aborted: 'Run stopped',
      error: 'Run failed',
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
