import type { MessageWithParts, SessionRecord, SessionStatus, SubagentMeta, TaskOptions } from '../../src-shared'
import type { RunLevel } from '../runtime'
import type { SessionsRepository } from '../store'
import { ToolError } from '../tools'
import { findNestedTask } from './nested'

/** The stored session a level's records hang from: itself when stored, else its nearest stored ancestor. */
export interface Anchor {
  sessionId: string
  userMessageId: string | null
}

const BUSY = new Set<SessionStatus>(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])

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
  if (target) {
    const meta = target.metadata.subagent as SubagentMeta | undefined
    let s: SessionRecord | undefined = target
    while (s && s.parentId && s.parentId !== level.sessionId) s = sessions.getSession(s.parentId)
    if (meta?.parentSessionId !== level.sessionId && s?.parentId !== level.sessionId) return undefined
    return { taskId, agentType: target.agent, inspectable: true, fork: false }
  }
  const found = findNestedTask(level.transcript.history(), taskId)
  if (!found) return undefined
  return { taskId, agentType: found.agentType, inspectable: false, fork: found.fork === true, messages: found.transcript ?? [] }
}

export function notYourChild(taskId: string): ToolError {
  return new ToolError(`task_id ${taskId} is not a subagent of this session; start a new task without task_id.`)
}

/** A stored session that is running right now (as a task, a woken turn, or a prompt of the person's). */
export function sessionBusy(sessions: SessionsRepository, sessionId: string): boolean {
  const s = sessions.getSession(sessionId)
  return s !== undefined && BUSY.has(s.status)
}
