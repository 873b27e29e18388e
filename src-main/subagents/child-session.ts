import type { MessageWithParts, SessionRecord, SubagentMeta, TaskOptions } from '../../src-shared'
import { StoredTranscript, type Transcript } from '../loop'
import type { RunLevel } from '../runtime'
import type { SessionsRepository, TranscriptRepository } from '../store'
import { ToolError } from '../tools'
import { findNestedTask } from './nested'

/** The stored session a level's records hang from: itself when stored, else its nearest stored ancestor. */
export interface Anchor {
  sessionId: string
  userMessageId: string | null
}

/**
 * An inspectable child's session row. Its `parent_id` is the nearest *stored* ancestor — the caller itself, or,
 * when the caller is an opaque child (no row of its own), the stored session that opaque child runs under — so the
 * picker nests it where a person can find it; `metadata.subagent.parentSessionId` names the caller itself, and
 * `agentPath` the agents from the root down to it, whose rules bound it wherever it is reached from.
 */
export function createChildSession(
  sessions: SessionsRepository,
  o: {
    anchor: Anchor
    level: RunLevel
    taskId: string
    agentName: string
    title: string
    model: SessionRecord['model']
    background: boolean
    task?: Record<string, unknown>
    options?: TaskOptions
  },
): SessionRecord {
  const subagent: SubagentMeta = {
    agentType: o.agentName,
    parentSessionId: o.level.sessionId,
    depth: o.level.depth + 1,
    background: o.background,
    inspectable: true,
    agentPath: [...o.level.agentPath, o.agentName],
    ...(o.options && Object.keys(o.options).length ? { options: o.options } : {}),
  }
  return sessions.createSession({
    id: o.taskId,
    agent: o.agentName,
    title: o.title,
    workspaceRoot: o.level.workdir,
    model: o.model,
    parentId: o.anchor.sessionId,
    parentMessageId: o.anchor.userMessageId,
    metadata: { subagent, ...(o.task ? { task: o.task } : {}) },
  })
}

/** An earlier child of the caller, as `task_id` names it: the type it ran as, and where its conversation is. */
export interface EarlierChild {
  taskId: string
  agentType: string
  inspectable: boolean
  fork: boolean
  /** an opaque child's nested conversation (a stored child's is its session) */
  messages?: MessageWithParts[]
}

/**
 * `task_id` must name a child of the caller: an inspectable child session (whose recorded parent — or stored ancestor
 * — is the caller), or an opaque one nested in the caller's history. Undefined when it names neither.
 */
export function findEarlierChild(sessions: SessionsRepository, level: RunLevel, taskId: string): EarlierChild | undefined {
  const target = sessions.getSession(taskId)
  if (target) return isDescendant(sessions, target, level.sessionId) ? { taskId, agentType: target.agent, inspectable: true, fork: false } : undefined
  const found = findNestedTask(level.transcript.history(), taskId)
  if (!found) return undefined
  return { taskId, agentType: found.agentType, inspectable: false, fork: found.fork === true, messages: found.transcript ?? [] }
}

export function notYourChild(taskId: string): ToolError {
  return new ToolError(`task_id ${taskId} is not a subagent of this session; start a new task without task_id.`)
}

/**
 * An inspectable child's transcript: its session, created on its first run (announced to the caller's viewers), or
 * taken up again on a resume — one archived meanwhile (`cleanup: "delete"`, or by age) is brought back to the list
 * while it works.
 */
export function storedChildTranscript(
  deps: { sessions: SessionsRepository; transcript: TranscriptRepository },
  level: RunLevel,
  o: Parameters<typeof createChildSession>[1] & { existing: boolean },
): Transcript {
  const { taskId, agentName } = o
  if (!o.existing) {
    const session = createChildSession(deps.sessions, o)
    level.emit({ type: 'subagent_event', sessionId: taskId, at: Date.now(), agentType: agentName, event: { type: 'session_created', sessionId: taskId, at: Date.now(), session } })
  } else if (deps.sessions.getSession(taskId)?.archivedAt) {
    const session = deps.sessions.updateSession(taskId, { archivedAt: null })
    level.emit({ type: 'subagent_event', sessionId: taskId, at: Date.now(), agentType: agentName, event: { type: 'session_updated', sessionId: taskId, at: Date.now(), session } })
  }
  return new StoredTranscript(deps.transcript, taskId)
}

/** `cleanup: "delete"`: the child's session is archived as soon as it ends; its transcript stays readable there. */
export function archiveChild(sessions: SessionsRepository, child: RunLevel): void {
  const session = sessions.updateSession(child.sessionId, { archivedAt: Date.now() })
  child.emit({ type: 'session_updated', sessionId: child.sessionId, at: Date.now(), session })
}

/**
 * Is `target` below the caller? Walks up from the target through the callers recorded in its metadata (which name
 * opaque levels too), falling back to its stored parent where a recorded caller has no row of its own. The one walk
 * that decides what a caller may reach (task_id, the session tools).
 */
export function isDescendant(sessions: Pick<SessionsRepository, 'getSession'>, target: SessionRecord, callerId: string): boolean {
  let cur: SessionRecord | undefined = target
  for (let hops = 0; cur && hops < 100; hops++) {
    const recorded: string | undefined = (cur.metadata.subagent as SubagentMeta | undefined)?.parentSessionId
    if (recorded === callerId || cur.parentId === callerId) return true
    cur = (recorded ? sessions.getSession(recorded) : undefined) ?? (cur.parentId ? sessions.getSession(cur.parentId) : undefined)
  }
  return false
}
