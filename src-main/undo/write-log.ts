import path from 'node:path'
import type { RunLevel, WriteSink } from '../runtime'
import type { PermissionAsk } from '../tools'
import type { TurnWrites } from '../store'

/** A turn being recorded: its workspace, and what each agent of it was allowed to write so far. */
type Recording = { workspace: string; workdirs: string[]; byAgent: Map<string, TurnWrites>; changed(writes: TurnWrites[]): void }

/**
 * Who wrote what during the turns being recorded. The runtime tells it of every allowed tool call (WriteSink); a call
 * belongs to the nearest turn on its level's session path — the root's turn for its subagents, or a stored child's
 * own turn when the person prompted that child. Paths are what the tools' permission asks named: a file tool's path,
 * and the targets the shell parser saw in a bash command (redirects, `tee`, `sed -i`…); any bash call also marks its
 * agent as one that may have written anything.
 */
export class WriteLog implements WriteSink {
  private readonly turns = new Map<string, Recording>()

  /**
   * Start recording the turn of `sessionId` in `workspace` (its real path; `workdir` as the session names it, which a
   * level's workdir equals); `changed` is told of every new write.
   */
  start(sessionId: string, workspace: string, workdir: string, changed: (writes: TurnWrites[]) => void): void {
    this.turns.set(sessionId, { workspace, workdirs: [workspace, path.resolve(workdir)], byAgent: new Map(), changed })
  }

  /** Stop recording: what each agent wrote, in the order they first wrote. */
  end(sessionId: string): TurnWrites[] {
    const turn = this.turns.get(sessionId)
    this.turns.delete(sessionId)
    return turn ? [...turn.byAgent.values()] : []
  }

  allowed(level: RunLevel, toolName: string, asks: PermissionAsk[]): void {
    const owner = [...level.path].reverse().find((id) => this.turns.has(id))
    const turn = owner && this.turns.get(owner)
    // A worktree child writes its own folder, not the workspace this turn records.
    if (!turn || !turn.workdirs.includes(path.resolve(level.workdir))) return
    const shell = toolName === 'bash'
    const files = asks.filter((a) => a.kind === 'path' && a.access === 'write' && !a.outsideWorkspace).flatMap((a) => a.subjects.map((s) => relative(level.workdir, s)))
    if (!shell && !files.length) return
    const key = level.path.join('/')
    let writes = turn.byAgent.get(key)
    if (!writes) turn.byAgent.set(key, (writes = { agentPath: [...level.agentPath], sessionPath: [...level.path], files: [], shellFiles: [], shell: false }))
    let changed = false
    const list = shell ? writes.shellFiles : writes.files
    for (const f of files) if (f && !list.includes(f) && list.push(f)) changed = true
    if (shell && !writes.shell) changed = writes.shell = true
    if (changed) turn.changed([...turn.byAgent.values()])
  }
}

/** A subject as the workspace-relative path with '/' (tools name paths relative to the workspace, or absolute). */
function relative(workdir: string, subject: string): string {
  const rel = path.isAbsolute(subject) ? path.relative(workdir, subject) : path.normalize(subject)
  return rel.startsWith('..') || path.isAbsolute(rel) ? '' : rel.split(path.sep).join('/').replace(/\/$/, '')
}
