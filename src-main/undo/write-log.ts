import path from 'node:path'
import type { RunLevel, WriteSink } from '../runtime'
import type { PermissionAsk } from '../tools'
import type { TurnWrites } from '../store'

/**
 * Tools that never change the workspace's files themselves. Any other tool the rules let run may: bash, the file
 * tools, and tools of MCP servers (which may write anything, like a shell command).
 */
const READ_ONLY = new Set(['read_file', 'list_dir', 'glob', 'grep', 'web_fetch', 'question', 'todo', 'plan_exit', 'task', 'sessions_list', 'sessions_history', 'sessions_send', 'sessions_wait'])

/** A turn being recorded: its workspace, what each agent of it was allowed to write so far, and who to tell. */
type Recording = { workspaces: string[]; byAgent: Map<string, TurnWrites>; wrote(writes: TurnWrites[], changed: boolean): Promise<void> }

/**
 * Who wrote what during the turns being recorded. The runtime tells it of every allowed tool call (WriteSink) before
 * the call runs; a call belongs to the nearest turn on its level's session path — the root's turn for its subagents,
 * or a stored child's own turn when the person prompted that child. Paths are what the tools' permission asks named:
 * a file tool's path, and the targets the shell parser saw in a bash command (redirects, `tee`, `sed -i`…); bash and
 * MCP tools also mark their agent as one that may have written anything. The turn's `wrote` is awaited before the
 * call runs: the first one takes the snapshot before the turn's changes.
 */
export class WriteLog implements WriteSink {
  private readonly turns = new Map<string, Recording>()

  /** `adopt`: told of an allowed call on no turn's path, so it may start recording one (a background child's writes). */
  constructor(private readonly adopt?: (level: RunLevel) => void) {}

  /**
   * Start recording the turn of `sessionId`; `workdirs` are the workspace's paths a level's workdir may equal (the
   * session's, its real path). `wrote` is told of every call that may write, with all writes so far and whether this
   * call added to them (a bash call after the first adds nothing, unless the parser saw a new target).
   */
  start(sessionId: string, workdirs: string[], wrote: (writes: TurnWrites[], changed: boolean) => Promise<void>): void {
    this.turns.set(sessionId, { workspaces: workdirs.map((w) => path.resolve(w)), byAgent: new Map(), wrote })
  }

  /** Stop recording: what each agent wrote, in the order they first wrote. */
  end(sessionId: string): TurnWrites[] {
    const turn = this.turns.get(sessionId)
    this.turns.delete(sessionId)
    return turn ? [...turn.byAgent.values()] : []
  }

  allowed(level: RunLevel, toolName: string, asks: PermissionAsk[]): Promise<void> | void {
    if (READ_ONLY.has(toolName)) return
    const owner = () => [...level.path].reverse().find((id) => this.turns.has(id))
    if (!owner()) this.adopt?.(level)
    const found = owner()
    const turn = found && this.turns.get(found)
    // A worktree child writes its own folder, not the workspace this turn records.
    if (!turn || !turn.workspaces.includes(path.resolve(level.workdir))) return
    const anything = toolName === 'bash' || !asks.some((a) => a.access === 'write')
    const files = asks.filter((a) => a.kind === 'path' && a.access === 'write' && !a.outsideWorkspace).flatMap((a) => a.subjects.map((s) => relative(level.workdir, s)))
    const key = level.path.join('/')
    let writes = turn.byAgent.get(key)
    let changed = !writes
    if (!writes) turn.byAgent.set(key, (writes = { agentPath: [...level.agentPath], sessionPath: [...level.path], files: [], shellFiles: [], shell: false }))
    const list = toolName === 'bash' ? writes.shellFiles : writes.files
    for (const f of files) if (f && !list.includes(f) && list.push(f)) changed = true
    if (anything && !writes.shell) changed = writes.shell = true
    return turn.wrote([...turn.byAgent.values()], changed)
  }
}

/** A subject as the workspace-relative path with '/' (tools name paths relative to the workspace, or absolute). */
function relative(workdir: string, subject: string): string {
  const rel = path.isAbsolute(subject) ? path.relative(workdir, subject) : path.normalize(subject)
  return rel.startsWith('..') || path.isAbsolute(rel) ? '' : rel.split(path.sep).join('/').replace(/\/$/, '')
}
