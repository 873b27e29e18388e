import type { SessionNotification, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk/unstable'

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

/** The updates sent on one session (a root, or a child session), in order. */
export function onSession(updates: SessionNotification[], sessionId: string): SessionUpdate[] {
  return updates.filter((n) => n.sessionId === sessionId).map((n) => n.update)
}

/** The children announced on a session, with every state they reported there, in order. */
export function childrenOf(updates: SessionNotification[], parentId: string) {
  const children = new Map<string, { title?: string | null; description?: string | null; capabilities?: unknown; states: { state: string; stopReason?: unknown }[] }>()
  for (const u of onSession(updates, parentId)) {
    if (u.sessionUpdate !== 'subagent_update') continue
    const child = children.get(u.sessionId) ?? { states: [] }
    if (u.title !== undefined) child.title = u.title
    if (u.description !== undefined) child.description = u.description
    if (u.capabilities !== undefined) child.capabilities = u.capabilities
    if (u.state) child.states.push({ state: u.state.state, ...('stopReason' in u.state ? { stopReason: u.state.stopReason } : {}) })
    children.set(u.sessionId, child)
  }
  return children
}
