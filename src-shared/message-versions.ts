import { z } from 'zod'
import { lazy } from './lazy'

/**
 * Edit with versions (issue 28). Editing a sent message keeps the old one: the new message's stored metadata names the
 * first message of the group (`editOf`), and what was hidden to make room for it is marked with the version whose
 * branch it was (`hiddenBranch`). `versions` is never stored: the host computes it for each visible message of a
 * group of two or more when it reads messages (1-based index, in the order the versions were written).
 */
export const MessageVersions = lazy(() => z.object({ index: z.number().int().min(1), count: z.number().int().min(2) }))
export type MessageVersions = z.infer<typeof MessageVersions>

/** The versions of a visible message, as the host computed them; undefined for a message never edited. */
export function messageVersions(metadata: Record<string, unknown>): MessageVersions | undefined {
  const parsed = MessageVersions.safeParse(metadata.versions)
  return parsed.success ? parsed.data : undefined
}

/** The first message of a message's version group (the message itself if it was never an edit). */
export function versionRoot(m: { id: string; metadata: Record<string, unknown> }): string {
  return typeof m.metadata.editOf === 'string' ? m.metadata.editOf : m.id
}
