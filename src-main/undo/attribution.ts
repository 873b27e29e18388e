import type { ChangeAuthor } from '../../src-shared'
import { isWithin } from '../checkpoints'
import type { TurnWrites } from '../store'

/**
 * Who changed `paths` (a file, and its old name for a rename) during a turn: every agent whose file tools were allowed
 * to write it; else every agent whose bash commands named it as a write target; else every agent that ran bash at all
 * (a shell command may write anything: `npm install`, a code generator). No author: the file changed during the turn
 * but none of the turn's agents could have written it — the person, their editor, another program or conversation.
 */
export function authorsOf(paths: string[], writes: TurnWrites[]): ChangeAuthor[] {
  const author = (w: TurnWrites, via: ChangeAuthor['via']): ChangeAuthor => ({ agentPath: w.agentPath, sessionPath: w.sessionPath, via })
  const byTool = writes.filter((w) => w.files.some((f) => paths.some((p) => isWithin(p, f))))
  if (byTool.length) return byTool.map((w) => author(w, 'file tool'))
  const named = writes.filter((w) => w.shellFiles.some((f) => paths.some((p) => isWithin(p, f))))
  if (named.length) return named.map((w) => author(w, 'shell'))
  return writes.filter((w) => w.shell).map((w) => author(w, 'shell'))
}

/** Is this author `sessionId`'s agent, or one of its descendants? */
export function byAgentOrBelow(author: ChangeAuthor, sessionId: string): boolean {
  return author.sessionPath.includes(sessionId)
}
