import type { MessageRecord } from '../../src-shared'
import { versionRoot } from '../../src-shared/message-versions'

/** An edit of a message: `editOf` is the first message of its group (see src-shared/message-versions.ts). */
export type EditRow = { id: string; editOf: string }

/**
 * Adds `metadata.versions` ({ index, count }) to the messages that belong to a group of two or more versions.
 * Computed on every read from the session's edits (ordered by id) rather than stored, so a later edit can never
 * leave a stale count on a version that was hidden when it happened.
 */
export function withVersions<T extends Pick<MessageRecord, 'id' | 'metadata'>>(messages: T[], edits: EditRow[]): T[] {
  if (!edits.length) return messages
  const groups = new Map<string, string[]>()
  for (const e of edits) {
    const members = groups.get(e.editOf)
    if (members) members.push(e.id)
    else groups.set(e.editOf, [e.editOf, e.id])
  }
  return messages.map((m) => {
    const members = groups.get(versionRoot(m))
    const index = members ? members.indexOf(m.id) : -1
    if (!members || index < 0) return m
    return { ...m, metadata: { ...m.metadata, versions: { index: index + 1, count: members.length } } }
  })
}
