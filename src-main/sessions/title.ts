import type { SessionRecord } from '../../src-shared'
import type { RunLevel } from '../runtime'
import type { RunnerDeps } from './runner'
import { emitterFor } from './emitter'
import { helperModel } from './helper-model'

/** Fire-and-forget: the hidden `title` agent names the session after its first message. */
export async function generateTitle(deps: RunnerDeps, level: RunLevel, session: SessionRecord, text: string, signal: AbortSignal): Promise<void> {
  if (session.title && session.title !== 'New session') return
  try {
    // Its own signal: aborting the user's turn must not cut the title short; stopping the host does.
    const result = await deps.subagents.runHelper({ ...level, signal }, 'title', text.slice(0, 4000), helperModel(level))
    const title = result.finishReason === 'stop' ? cleanTitle(result.text) : ''
    // No title from the model (it is not set up, or failed): the prompt's first words, not a list of "Untitled".
    setTitle(deps, session.id, title || fallbackTitle(text))
  } catch (err) {
    // A missing title is cosmetic; report it, title the session by its prompt, and keep the run going.
    console.error(`[agentry] title for ${session.id} failed:`, err instanceof Error ? err.message : err)
    setTitle(deps, session.id, fallbackTitle(text))
  }
}

function setTitle(deps: RunnerDeps, sessionId: string, title: string): void {
  const current = deps.sessions.getSession(sessionId)
  if (!title || !current || (current.title && current.title !== 'New session')) return
  const updated = deps.sessions.updateSession(sessionId, { title })
  emitterFor(deps.hub, deps.sessions, updated).emit({ type: 'session_updated', sessionId, at: Date.now(), session: updated })
}

/** The prompt's first line as a title: Markdown marks off, at most 60 characters, cut at a word. */
export function fallbackTitle(text: string): string {
  const line = text.split('\n').map((l) => l.replace(/^[#>*\-\s`]+|[`*]+/g, '').trim()).find(Boolean) ?? ''
  if (line.length <= 60) return line
  const cut = line.slice(0, 60)
  const space = cut.lastIndexOf(' ')
  return `${(space > 30 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`
}

export function cleanTitle(raw: string): string {
  const line = raw.replace(/^\[demo model[^\]]*\]\s*/i, '').split('\n').find((l) => l.trim()) ?? ''
  return line.replace(/^["'#*\s]+|["'*\s.]+$/g, '').slice(0, 80)
}
