import type { SessionNotification, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk'

/** A tool call as an editor ends up showing it: the `tool_call` and every `tool_call_update` merged in order. */
export interface FoldedCall {
  toolCallId: string
  title?: string
  kind?: string
  status?: string
  content?: ToolCallContent[]
  locations?: unknown[]
  meta?: unknown
  /** every status it went through, in order */
  statuses: string[]
}

/** What an editor shows after a stream of updates: message texts in order, tool calls by id, the latest plan. */
export interface FoldedView {
  messages: { kind: string; messageId: string; text: string }[]
  calls: Map<string, FoldedCall>
  plan?: unknown
}

export function fold(updates: (SessionNotification | SessionUpdate)[]): FoldedView {
  const view: FoldedView = { messages: [], calls: new Map() }
  for (const raw of updates) {
    const u = 'update' in raw ? raw.update : raw
    switch (u.sessionUpdate) {
      case 'user_message_chunk':
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        const text = u.content.type === 'text' ? u.content.text : `[${u.content.type}]`
        const last = view.messages.find((m) => m.kind === u.sessionUpdate && m.messageId === u.messageId)
        if (last) last.text += text
        else view.messages.push({ kind: u.sessionUpdate, messageId: u.messageId ?? '', text })
        break
      }
      case 'tool_call':
      case 'tool_call_update': {
        const call = view.calls.get(u.toolCallId) ?? { toolCallId: u.toolCallId, statuses: [] }
        if (u.title != null) call.title = u.title
        if (u.kind != null) call.kind = u.kind
        if (u.status != null) {
          call.status = u.status
          call.statuses.push(u.status)
        }
        if (u.content != null) call.content = u.content
        if (u.locations != null) call.locations = u.locations
        if (u._meta != null) call.meta = u._meta
        view.calls.set(u.toolCallId, call)
        break
      }
      case 'plan':
        view.plan = u.entries
        break
      default:
        break
    }
  }
  return view
}

export function contentText(content: ToolCallContent[] | undefined): string {
  return (content ?? []).map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : c.type === 'diff' ? `diff ${c.path}` : c.type)).join('\n')
}
