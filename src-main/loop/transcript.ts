import { FILE_PART_TYPE, type AgentEvent, type FilePartData, type MessageRecord, type MessageRole, type MessageWithParts, type PartRecord } from '../../src-shared'
import { newId, type TranscriptRepository } from '../store'

/**
 * Where a run's messages and parts live. The loop writes through this and never knows which kind it has:
 * a session with rows in the store, or an opaque child whose transcript is nested inside its parent's task part.
 */
export interface Transcript {
  readonly sessionId: string
  history(): MessageWithParts[]
  createMessage(role: MessageRole, metadata?: Record<string, unknown>): MessageRecord
  upsertPart(part: PartRecord): void
  updateMessageMetadata(id: string, patch: Record<string, unknown>): void
}

export class StoredTranscript implements Transcript {
  constructor(
    private readonly rows: TranscriptRepository,
    readonly sessionId: string,
  ) {}

  history(): MessageWithParts[] {
    return this.rows.listMessages(this.sessionId)
  }

  createMessage(role: MessageRole, metadata: Record<string, unknown> = {}): MessageRecord {
    return this.rows.createMessage({ sessionId: this.sessionId, role, metadata })
  }

  upsertPart(part: PartRecord): void {
    this.rows.upsertPart(part)
  }

  updateMessageMetadata(id: string, patch: Record<string, unknown>): void {
    this.rows.updateMessageMetadata(id, patch)
  }
}

/** An opaque child's transcript: kept in memory and mirrored into the parent's task part on every change. */
export class NestedTranscript implements Transcript {
  private readonly messages: MessageWithParts[]
  private scheduled = false

  /**
   * @param schedule runs the copy later, once per batch of changes; the host passes the store's `beforeFlush`, so
   *   the copy commits in the same transaction as the events that describe the change (a viewer never sees an
   *   event whose data is not on disk).
   */
  constructor(
    readonly sessionId: string,
    initial: MessageWithParts[],
    private readonly onChange: (messages: MessageWithParts[]) => void,
    private readonly schedule: (run: () => void) => void = (run) => setImmediate(run),
  ) {
    this.messages = structuredClone(initial)
  }

  history(): MessageWithParts[] {
    return this.messages
  }

  createMessage(role: MessageRole, metadata: Record<string, unknown> = {}): MessageRecord {
    const now = Date.now()
    const message: MessageWithParts = {
      id: newId('msg'),
      sessionId: this.sessionId,
      role,
      metadata,
      createdAt: now,
      updatedAt: now,
      parts: [],
    }
    this.messages.push(message)
    this.changed()
    const { parts: _parts, ...record } = message
    return record
  }

  upsertPart(part: PartRecord): void {
    const message = this.messages.find((m) => m.id === part.messageId)
    if (!message) throw new Error(`nested transcript ${this.sessionId}: no message ${part.messageId} for part ${part.id}`)
    const at = message.parts.findIndex((p) => p.id === part.id)
    if (at >= 0) message.parts[at] = { ...part }
    else message.parts.push({ ...part })
    message.updatedAt = Date.now()
    this.changed()
  }

  updateMessageMetadata(id: string, patch: Record<string, unknown>): void {
    const message = this.messages.find((m) => m.id === id)
    if (!message) return
    message.metadata = { ...message.metadata, ...patch }
    this.changed()
  }

  /** Write the nested copy now (at the end of a run), instead of at the next tick. */
  flush(): void {
    this.scheduled = false
    this.onChange(structuredClone(this.messages))
  }

  // Chunks arrive many per tick; serializing the whole nested transcript once per batch keeps this linear.
  private changed(): void {
    if (this.scheduled) return
    this.scheduled = true
    this.schedule(() => {
      if (this.scheduled) this.flush()
    })
  }
}

export function textPart(messageId: string, sessionId: string, text: string): PartRecord {
  return { id: newId('prt'), messageId, sessionId, index: 0, type: 'text', data: { text }, toolCallId: null, toolState: null }
}

/** Writes a whole one-part message (a prompt, a synthetic result) and tells subscribers about it. */
export function appendTextMessage(
  transcript: Transcript,
  emit: (event: AgentEvent) => void,
  role: MessageRole,
  text: string,
  metadata: Record<string, unknown> = {},
): MessageRecord {
  const message = transcript.createMessage(role, metadata)
  const part = textPart(message.id, transcript.sessionId, text)
  transcript.upsertPart(part)
  const at = Date.now()
  emit({ type: 'message_created', sessionId: transcript.sessionId, at, message })
  emit({ type: 'part_updated', sessionId: transcript.sessionId, at, part })
  return message
}

/** Adds a prompt's files to its message, after its text, as `file` parts (see FilePartData). */
export function appendFileParts(transcript: Transcript, emit: (event: AgentEvent) => void, messageId: string, files: FilePartData[]): void {
  files.forEach((data, i) => {
    const part: PartRecord = { id: newId('prt'), messageId, sessionId: transcript.sessionId, index: i + 1, type: FILE_PART_TYPE, data, toolCallId: null, toolState: null }
    transcript.upsertPart(part)
    emit({ type: 'part_updated', sessionId: transcript.sessionId, at: Date.now(), part })
  })
}

/** `metadata.notice` of a stored error: shown in place in the transcript, never sent to the model. */
export const ERROR_NOTICE = 'error'

/**
 * A failed turn's error, stored in the transcript where it happened (so it shows in place after a reload and never
 * drifts below later answers), then announced as an `error` event for live viewers and the CLI.
 */
export function appendErrorMessage(transcript: Transcript, emit: (event: AgentEvent) => void, code: string, message: string): MessageRecord {
  const record = appendTextMessage(transcript, emit, 'assistant', message, { notice: ERROR_NOTICE, error: { code, message } })
  emit({ type: 'error', sessionId: transcript.sessionId, at: Date.now(), code, message })
  return record
}
