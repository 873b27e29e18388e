import { HostError, type HostCalls, type MessageWithParts, type TaskCard, type TaskWorktree } from '../../src-shared'
import { editTaskCard, findNestedTask, removeWorktree, worktreeDiff } from '../subagents'
import { emitterFor } from '../sessions'
import type { CallDeps } from './calls'
import { openPath } from './open-path'


/**
 * The actions of a task card with a worktree: show its diff, remove it (folder and branch), open its folder. The card
 * is looked up in the conversation of `sessionId` and the stored sessions below it (the UI asks from the session it
 * shows), so only a worktree a card names can be touched.
 */
export function worktreeCalls(d: CallDeps): Pick<HostCalls, 'tasks.worktree' | 'changes.applyWorktree'> {
  const find = (sessionId: string, taskId: string): { owner: string; card: TaskCard; worktree: TaskWorktree } => {
    for (const owner of conversationIds(d, sessionId)) {
      const card = findNestedTask(d.transcript.listMessages(owner, { includeHidden: true }), taskId)
      if (card?.worktree) return { owner, card, worktree: card.worktree }
      if (card) throw new HostError('invalid_request', `Task ${taskId} did not run in a worktree.`)
    }
    throw new HostError('not_found', `No task ${taskId} in session ${sessionId}.`)
  }
  return {
    'changes.applyWorktree': async ({ sessionId, taskId, ...request }) => {
      if (!d.sessions.getSession(sessionId)) throw new HostError('not_found', `No session ${sessionId}.`)
      const { card, worktree } = find(sessionId, taskId)
      if (worktree.state !== 'kept') throw new HostError('conflict', `The worktree of task ${taskId} is ${worktree.state === 'active' ? 'still in use: its task is running' : 'already removed'}.`)
      return d.undo.applyWorktree(sessionId, worktree, [`${card.agentType} (worktree ${worktree.branch})`], request)
    },
    'tasks.worktree': async ({ sessionId, taskId, action }) => {
      if (!d.sessions.getSession(sessionId)) throw new HostError('not_found', `No session ${sessionId}.`)
      const { owner, worktree } = find(sessionId, taskId)
      if (worktree.state !== 'kept') throw new HostError('conflict', `The worktree of task ${taskId} is ${worktree.state === 'active' ? 'still in use: its task is running' : 'already removed'}.`)
      if (action === 'diff') return { worktree, diff: await worktreeDiff(worktree) }
      if (action === 'open') {
        await openPath(worktree.path, 'folder')
        return { worktree }
      }
      await removeWorktree(worktree)
      const removed: TaskWorktree = { ...worktree, state: 'removed', diffStat: undefined }
      const part = editTaskCard(d.transcript.listMessages(owner, { includeHidden: true }), taskId, (card) => ({ ...card, worktree: removed }))
      if (part) {
        d.transcript.upsertPart(part)
        const session = d.sessions.getSession(owner)
        if (session) emitterFor(d.hub, d.sessions, session).emit({ type: 'part_updated', sessionId: owner, at: Date.now(), part })
      }
      return { worktree: removed }
    },
  }
}

/** The session and every stored session below it (where task cards of its conversation live). */
function conversationIds(d: CallDeps, sessionId: string): string[] {
  const ids = [sessionId]
  for (let i = 0; i < ids.length; i++) for (const child of d.sessions.listSessions({ parentId: ids[i], includeArchived: true, limit: 100_000 })) ids.push(child.id)
  return ids
}

/** The kept worktrees of a conversation's task cards (nested cards of opaque children included). */
export function keptWorktrees(d: CallDeps, sessionId: string): { taskId: string; agentType: string; description: string; worktree: TaskWorktree }[] {
  const out: { taskId: string; agentType: string; description: string; worktree: TaskWorktree }[] = []
  const visit = (messages: MessageWithParts[]) => {
    for (const m of messages) {
      for (const p of m.parts) {
        const card = p.data.subagent as TaskCard | undefined
        if (!card) continue
        if (card.worktree?.state === 'kept') out.push({ taskId: card.taskId, agentType: card.agentType, description: card.description, worktree: card.worktree })
        if (card.transcript) visit(card.transcript)
      }
    }
  }
  for (const id of conversationIds(d, sessionId)) visit(d.transcript.listMessages(id))
  return out
}
