import type { HostCalls } from '../../src-shared'
import { checkpointSpace, pruneCheckpoints } from '../undo'
import type { CallDeps } from './calls'
import { keptWorktrees } from './worktree-calls'


/** Undo, redo, revert and the Changes view (issue 24): the calls over the undo service (its UndoErrors are expected: contain-faults). */
export function changeCalls(d: CallDeps): Pick<HostCalls, 'changes.list' | 'changes.undo' | 'changes.redo' | 'changes.revert' | 'checkpoints.space'> {
  return {
    'changes.list': async ({ sessionId }) => ({ ...(await d.undo.list(sessionId)), worktrees: keptWorktrees(d, sessionId) }),
    'changes.undo': ({ sessionId, ...request }) => d.undo.undo(sessionId, request),
    'changes.redo': ({ sessionId, ...request }) => d.undo.redo(sessionId, request),
    'changes.revert': ({ sessionId, ...request }) => d.undo.revert(sessionId, request),
    'checkpoints.space': async ({ prune }) => {
      const enabled = d.config().config.checkpoints.enabled
      if (!prune) return { ...checkpointSpace(d.dataDir), enabled }
      const r = await pruneCheckpoints({ dataDir: d.dataDir, recorder: d.recorder, rows: d.checkpoints, sessionExists: (id) => d.sessions.getSession(id) !== undefined })
      return { ...checkpointSpace(d.dataDir), enabled, freedBytes: Math.max(0, r.beforeBytes - r.afterBytes) }
    },
  }
}
