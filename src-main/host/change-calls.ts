import fs from 'node:fs'
import path from 'node:path'
import { HostError, type HostCalls } from '../../src-shared'
import { isMissing } from '../files'
import { checkpointSpace, pruneCheckpoints } from '../undo'
import type { CallDeps } from './calls'
import { openPath } from './open-path'
import { keptWorktrees } from './worktree-calls'


/** Undo, redo, revert and the Changes view (issue 24): the calls over the undo service (its UndoErrors are expected: contain-faults). */
export function changeCalls(d: CallDeps): Pick<HostCalls, 'changes.list' | 'changes.undo' | 'changes.redo' | 'changes.revert' | 'changes.open' | 'checkpoints.space'> {
  return {
    'changes.list': async ({ sessionId }) => ({ ...(await d.undo.list(sessionId)), worktrees: keptWorktrees(d, sessionId) }),
    'changes.undo': ({ sessionId, ...request }) => d.undo.undo(sessionId, request),
    'changes.redo': ({ sessionId, ...request }) => d.undo.redo(sessionId, request),
    'changes.revert': ({ sessionId, ...request }) => d.undo.revert(sessionId, request),
    'changes.open': async ({ sessionId, path: rel }) => {
      const session = d.sessions.getSession(sessionId)
      if (!session) throw new HostError('not_found', `No session ${sessionId}.`)
      await openPath(fileInWorkspace(session.workspaceRoot, rel), 'file')
      return { ok: true as const }
    },
    'checkpoints.space': async ({ prune }) => {
      const enabled = d.config().config.checkpoints.enabled
      if (!prune) return { ...checkpointSpace(d.dataDir), enabled }
      const r = await pruneCheckpoints({ dataDir: d.dataDir, recorder: d.recorder, rows: d.checkpoints, sessionExists: (id) => d.sessions.getSession(id) !== undefined })
      return { ...checkpointSpace(d.dataDir), enabled, freedBytes: Math.max(0, r.beforeBytes - r.afterBytes) }
    },
  }
}

/**
 * A file of the workspace named by a client, as a real path: it must exist, be a file, and lie inside the workspace
 * after every link is resolved (a link may not lead the opener elsewhere).
 */
function fileInWorkspace(workspaceRoot: string, rel: string): string {
  const root = fs.realpathSync(workspaceRoot)
  let real: string
  try {
    real = fs.realpathSync(path.resolve(root, rel))
  } catch (err) {
    if (!isMissing(err)) throw err
    throw new HostError('not_found', `${rel} is not in the workspace (any more); refresh the changes.`)
  }
  const inside = path.relative(root, real)
  if (inside.startsWith('..') || path.isAbsolute(inside)) throw new HostError('invalid_request', `${rel} is outside the workspace; only its own files open from here.`)
  if (!fs.statSync(real).isFile()) throw new HostError('invalid_request', `${rel} is not a file.`)
  return real
}
