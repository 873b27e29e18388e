import type { AgentEvent, SessionRecord } from '../../src-shared'
import { versionRoot, type MessageVersions } from '../../src-shared/message-versions'
import type { SessionsRepository, TranscriptRepository } from '../store'
import { RunnerError } from './session-error'

type VersionDeps = {
  transcript: Pick<TranscriptRepository, 'listMessages' | 'hideMessagesFrom' | 'showBranch'>
  sessions: Pick<SessionsRepository, 'updateSession'>
}

/**
 * Shows version `index` (1-based) of the edited message `messageId` belongs to. The visible version and everything
 * after it become that version's branch (hidden, marked with it); the chosen version's branch — exactly what was
 * visible after it when it was last shown — comes back. Messages hidden for another reason (undo, retry, another
 * group's branch) stay hidden. The caller has checked that the session is idle.
 */
export function switchVersion(
  deps: VersionDeps,
  session: SessionRecord,
  input: { messageId: string; index: number },
  emit: (event: AgentEvent) => void,
): { messageId: string; versions: MessageVersions } {
  const all = deps.transcript.listMessages(session.id, { includeHidden: true })
  const message = all.find((m) => m.id === input.messageId)
  if (!message) throw new RunnerError('not_found', `No message ${input.messageId} in this session. Reload the session.`)
  const root = versionRoot(message)
  const group = all.filter((m) => m.id === root || m.metadata.editOf === root)
  if (group.length < 2) throw new RunnerError('invalid_request', 'This message has only one version: it was never edited.')
  if (input.index > group.length) throw new RunnerError('invalid_request', `This message has ${group.length} versions; there is no version ${input.index}.`)
  const current = group.find((m) => !m.metadata.hiddenAt)
  if (!current) throw new RunnerError('conflict', 'No version of this message is in the conversation now (it was undone). Redo first, or go on from where the conversation is.')
  const target = group[input.index - 1]
  const versions = { index: input.index, count: group.length }
  if (target.id === current.id) return { messageId: target.id, versions }
  // Only a version hidden as the start of its own branch can come back; one hidden by an undo stays taken back.
  if (target.metadata.hiddenBranch !== target.id) throw new RunnerError('conflict', `Version ${input.index} of this message was undone; it cannot be shown again.`)

  const hidden = deps.transcript.hideMessagesFrom(session.id, current.id, 'edited', current.id)
  const shown = new Set(deps.transcript.showBranch(session.id, target.id))
  // Redo would put back messages of the branch just hidden, after this one: a switch ends the offer, as a new message does.
  if (session.metadata.rewound !== undefined) {
    const { rewound: _dropped, ...metadata } = session.metadata
    deps.sessions.updateSession(session.id, { metadata })
  }
  const at = Date.now()
  if (hidden.length) emit({ type: 'messages_hidden', sessionId: session.id, at, messageIds: hidden, reason: 'edited' })
  // Shown again as redo does: the clients add them (after what stayed visible, which is all older), with their parts.
  for (const m of deps.transcript.listMessages(session.id)) {
    if (!shown.has(m.id)) continue
    const { parts, ...record } = m
    emit({ type: 'message_created', sessionId: session.id, at, message: record })
    for (const part of parts) emit({ type: 'part_updated', sessionId: session.id, at, part })
  }
  return { messageId: target.id, versions }
}
