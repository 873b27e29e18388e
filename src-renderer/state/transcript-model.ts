import { CommandUse, foldEvent, type AgentEvent, type LeafEvent, type MessageWithParts, type PartRecord, type SessionStatus } from '../../src-shared'
import { TokenUsage } from '../../src-shared/session'
import { readTaskCard } from './part-data'

/** Everything the UI knows about one session's transcript (root, inspectable child or opaque child alike). */
export type Transcript = {
  sessionId: string
  messageIds: string[]
  /**
   * Message objects by id. The Map itself is updated in place (copying a 5,000-entry index per frame is what made
   * streaming slow); what the UI relies on is that a changed message is always a NEW object, so a component
   * selecting one message re-renders exactly when that message changed.
   */
  messages: Map<string, MessageWithParts>
  /** events with seq <= this are already contained in the seeded data and must not be applied again */
  seededAtSeq: number
  /** true once the whole transcript came from the host (sessions.get or a nested task transcript) */
  complete: boolean
  status: SessionStatus | null
  /** prompt + answer tokens of the last model step: how full the context window is (null: no step yet) */
  contextTokens: number | null
  /** while `retrying`: the next attempt, when it starts (host clock) and why the last failed */
  retry?: { attempt: number; of: number; delayMs: number; error: string; at: number } | null
}

export type Transcripts = Record<string, Transcript>

export function emptyTranscript(sessionId: string, complete = false): Transcript {
  return { sessionId, messageIds: [], messages: new Map(), seededAtSeq: -1, complete, status: null, contextTokens: null }
}

/** The last message the person wrote in a transcript (not one a parent agent or the host put there). */
export function lastPersonMessage(t: Transcript | undefined): MessageWithParts | undefined {
  if (!t) return undefined
  for (let i = t.messageIds.length - 1; i >= 0; i--) {
    const m = t.messages.get(t.messageIds[i])
    if (m?.role === 'user' && m.metadata.synthetic !== true) return m
  }
  return undefined
}

/** The text of the person's last message in a transcript (↑ in an empty composer brings it back). */
export function lastUserText(t: Transcript | undefined): string | null {
  if (!t) return null
  for (let i = t.messageIds.length - 1; i >= 0; i--) {
    const m = t.messages.get(t.messageIds[i])
    if (m?.role !== 'user' || m.metadata.synthetic === true) continue
    // A command comes back as it was typed (`/review main`), not as the prompt it became.
    const command = CommandUse.safeParse(m.metadata.command)
    if (command.success) return `/${command.data.name}${command.data.args ? ` ${command.data.args}` : ''}`
    const text = m.parts.map((p) => (p.type === 'text' && typeof p.data.text === 'string' ? p.data.text : '')).join('')
    if (text) return text
  }
  return null
}

/** The event that actually happened, in the session that owns it (the one fold: src-shared/event-fold.ts). */
export function leafOf(event: AgentEvent): LeafEvent {
  return foldEvent(event).leaf
}

/**
 * Applies a batch of changes to a transcripts map without changing the message objects the UI already rendered:
 * each transcript and message is copied at most once per batch, so a frame with 50 deltas costs one copy.
 */
export class TranscriptDraft {
  private readonly next: Transcripts
  private readonly copiedT = new Set<string>()
  private readonly copiedM = new Set<string>()
  changed = false

  constructor(base: Transcripts) {
    this.next = { ...base }
  }

  result(): Transcripts {
    return this.next
  }

  /** Replaces a session's transcript with data fetched from the host, including nested opaque children. */
  seed(sessionId: string, messages: MessageWithParts[], seq: number, status: SessionStatus | null = null): void {
    const t = emptyTranscript(sessionId, true)
    t.seededAtSeq = seq
    t.status = status ?? this.next[sessionId]?.status ?? null
    for (const m of messages) {
      t.messageIds.push(m.id)
      t.messages.set(m.id, { ...m, parts: [...m.parts].sort((a, b) => a.index - b.index) })
      for (const p of m.parts) this.seedNested(p, seq)
      const used = stepContext(m.metadata.usage)
      if (m.role === 'assistant' && used !== null) t.contextTokens = used
    }
    this.next[sessionId] = t
    this.copiedT.add(sessionId)
    this.changed = true
  }

  apply(seq: number, event: AgentEvent): void {
    const e = leafOf(event)
    const existing = this.next[e.sessionId]
    if (existing && seq <= existing.seededAtSeq) return
    switch (e.type) {
      case 'message_created': {
        const t = this.transcript(e.sessionId)
        if (t.messages.has(e.message.id)) return
        t.messageIds = [...t.messageIds, e.message.id]
        t.messages.set(e.message.id, { ...e.message, parts: [] })
        this.copiedM.add(key(e.sessionId, e.message.id))
        return
      }
      case 'content_delta': {
        const m = this.message(e.sessionId, e.messageId)
        const i = m.parts.findIndex((p) => p.id === e.partId)
        if (i < 0) {
          m.parts.push(newPart(e.sessionId, e.messageId, e.partId, m.parts.length, e.partType, { text: e.delta }))
          return
        }
        const p = m.parts[i]
        const prev = typeof p.data.text === 'string' ? p.data.text : ''
        m.parts[i] = { ...p, data: { ...p.data, text: prev + e.delta } }
        return
      }
      case 'tool_call_start':
        return this.patchPart(e.sessionId, e.messageId, e.partId, `tool-${e.toolName}`, (p) => ({
          ...p,
          toolCallId: e.toolCallId,
          toolState: p.toolState === 'output-available' || p.toolState === 'output-error' ? p.toolState : 'input-available',
          data: { ...p.data, input: e.input, startedAt: p.data.startedAt ?? e.at },
        }))
      case 'tool_call_end':
        return this.patchPart(e.sessionId, e.messageId, e.partId, `tool-${e.toolName}`, (p) => ({
          ...p,
          toolCallId: e.toolCallId,
          toolState: e.ok ? 'output-available' : 'output-error',
          data: { ...p.data, output: e.output, ok: e.ok, durationMs: e.durationMs, ...(e.metadata ? { metadata: e.metadata } : {}) },
        }))
      case 'task_update':
        return this.patchPart(e.sessionId, e.messageId, e.partId, 'tool-task', (p) => {
          const prev = readTaskCard(p)
          return { ...p, toolCallId: e.toolCallId, data: { ...p.data, subagent: { ...prev, ...e.task, transcript: prev?.transcript } } }
        })
      case 'part_updated': {
        const m = this.message(e.sessionId, e.part.messageId)
        const i = m.parts.findIndex((p) => p.id === e.part.id)
        if (i < 0) m.parts.push(e.part)
        else m.parts[i] = e.part
        m.parts.sort((a, b) => a.index - b.index)
        this.seedNested(e.part, seq)
        return
      }
      case 'status_change': {
        const t = this.transcript(e.sessionId)
        t.status = e.status
        t.retry = e.status === 'retrying' && e.retry ? { ...e.retry, at: e.at } : null
        return
      }
      case 'turn_complete': {
        if (e.contextTokens !== undefined) this.transcript(e.sessionId).contextTokens = e.contextTokens
        // A turn of its own stream (not a child's, wrapped in subagent_event) cut by a Stop: the host marks the answer
        // it cut `stopped` (sessions/turn.ts); the same mark, live.
        if (event === e && e.finishReason === 'aborted' && e.messageId && this.next[e.sessionId]?.messages.has(e.messageId)) {
          const m = this.message(e.sessionId, e.messageId)
          m.metadata = { ...m.metadata, stopped: true }
        }
        return
      }
      case 'messages_hidden': {
        // Retry, regenerate, edit: the host keeps them, the transcript no longer shows them.
        const t = this.transcript(e.sessionId)
        const gone = new Set(e.messageIds)
        t.messageIds = t.messageIds.filter((id) => !gone.has(id))
        for (const id of gone) t.messages.delete(id)
        return
      }
      case 'tool_approval_required':
        return this.markApproval(e.sessionId, e.approval.toolCallId)
      default:
        // approvals resolved, queue and session events: other stores own those. An `error` is
        // stored as a message of its own (metadata.error), which arrives as message_created + part_updated.
        return
    }
  }

  /** An opaque child's transcript arrives nested in its task part; it becomes that child's transcript if we have none. */
  private seedNested(part: PartRecord, seq: number): void {
    const card = readTaskCard(part)
    if (!card?.transcript || this.next[card.taskId]?.complete) return
    this.seed(card.taskId, card.transcript, seq, null)
  }

  private markApproval(sessionId: string, toolCallId: string): void {
    const t = this.next[sessionId]
    if (!t) return
    for (let k = t.messageIds.length - 1; k >= 0 && k >= t.messageIds.length - 5; k--) {
      const mid = t.messageIds[k]
      const i = (t.messages.get(mid)?.parts ?? []).findIndex((p) => p.toolCallId === toolCallId)
      if (i >= 0) {
        const m = this.message(sessionId, mid)
        m.parts[i] = { ...m.parts[i], toolState: 'approval-requested' }
        return
      }
    }
  }

  private patchPart(sessionId: string, messageId: string, partId: string, type: string, fn: (p: PartRecord) => PartRecord): void {
    const m = this.message(sessionId, messageId)
    const i = m.parts.findIndex((p) => p.id === partId)
    if (i < 0) m.parts.push(fn(newPart(sessionId, messageId, partId, m.parts.length, type, {})))
    else m.parts[i] = fn(m.parts[i])
  }

  private transcript(sessionId: string): Transcript {
    this.changed = true
    const cur = this.next[sessionId]
    if (!cur) {
      const t = emptyTranscript(sessionId)
      this.next[sessionId] = t
      this.copiedT.add(sessionId)
      return t
    }
    if (this.copiedT.has(sessionId)) return cur
    const t = { ...cur }
    this.next[sessionId] = t
    this.copiedT.add(sessionId)
    return t
  }

  private message(sessionId: string, messageId: string): MessageWithParts {
    const t = this.transcript(sessionId)
    const k = key(sessionId, messageId)
    let m = t.messages.get(messageId)
    if (!m) {
      // A part for a message we never saw created (we joined mid-message): show it rather than drop it.
      const now = Date.now()
      m = { id: messageId, sessionId, role: 'assistant', metadata: {}, createdAt: now, updatedAt: now, parts: [] }
      t.messageIds = [...t.messageIds, messageId]
    } else if (!this.copiedM.has(k)) {
      m = { ...m, parts: [...m.parts] }
    } else {
      return m
    }
    t.messages.set(messageId, m)
    this.copiedM.add(k)
    return m
  }
}

function key(sessionId: string, messageId: string): string {
  return `${sessionId}\u0000${messageId}`
}

function newPart(
  sessionId: string,
  messageId: string,
  id: string,
  index: number,
  type: string,
  data: Record<string, unknown>,
): PartRecord {
  return { id, messageId, sessionId, index, type, data, toolCallId: null, toolState: null }
}

/** A stored step's usage (message metadata) → the tokens it put in the context window. */
function stepContext(usage: unknown): number | null {
  const u = TokenUsage.safeParse(usage)
  if (!u.success) return null
  const n = u.data.prompt + u.data.completion
  return n > 0 ? n : null
}
