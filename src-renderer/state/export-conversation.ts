import { conversationMarkdown } from '../../src-shared/conversation-markdown'
import { useSessions } from './sessions-store'
import { useTranscript } from './transcript-store'
import { notify } from './ui-store'

/** A file name from a title: letters, digits and dashes, never empty. */
export function exportFileName(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80)
  return `${slug || 'conversation'}.md`
}

/** Saves the conversation on screen as Markdown (the browser's download; the desktop app's save). */
export function exportConversation(sessionId: string): void {
  const t = useTranscript.getState().transcripts[sessionId]
  const session = useSessions.getState().byId[sessionId]
  if (!t || !session) return notify({ context: 'Exporting the conversation', message: 'This conversation is not loaded yet.', hint: 'Open it, then export again.' })
  const messages = t.messageIds.map((id) => t.messages.get(id)).filter((m) => m !== undefined)
  const blob = new Blob([conversationMarkdown(session, messages)], { type: 'text/markdown;charset=utf-8' })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = exportFileName(session.title)
  document.body.append(a)
  a.click()
  a.remove()
  // After the click has handed the file over; revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
