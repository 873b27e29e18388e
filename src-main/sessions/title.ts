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
    const title = cleanTitle(result.text)
    if (!title || result.finishReason !== 'stop') return
    const current = deps.sessions.getSession(session.id)
    if (!current || (current.title && current.title !== 'New session')) return
    const updated = deps.sessions.updateSession(session.id, { title })
    emitterFor(deps.hub, deps.sessions, updated).emit({ type: 'session_updated', sessionId: session.id, at: Date.now(), session: updated })
  } catch (err) {
    // A missing title is cosmetic; report it and keep the run going.
    console.error(`[agentry] title for ${session.id} failed:`, err instanceof Error ? err.message : err)
  }
}

export function cleanTitle(raw: string): string {
  const line = raw.replace(/^\[demo model[^\]]*\]\s*/i, '').split('\n').find((l) => l.trim()) ?? ''
  return line.replace(/^["'#*\s]+|["'*\s.]+$/g, '').slice(0, 80)
}
