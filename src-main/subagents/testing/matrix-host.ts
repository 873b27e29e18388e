import { execFileSync } from 'node:child_process'
import type { Harness } from '../../testing/harness'
import type { MatrixCase } from './matrix-table'

/** Waits until no run, child or woken turn is left, then flushes the store: what every matrix group checks after. */
export async function settleAll(h: Harness): Promise<void> {
  do {
    await h.host.runner.idle()
    await h.host.runs.settleAll()
  } while (h.host.runner.runs().length > 0)
  h.host.store.flush()
}

/** One root session per case, in `roots` (case id → session id). */
export async function createRoots(h: Harness, cases: MatrixCase[], roots: Map<string, string>): Promise<void> {
  for (const c of cases) roots.set(c.id, (await h.host.api.calls['sessions.create']({ workspaceRoot: h.workdir })).session.id)
}

/** `dir` as a git repository with everything in it committed once (worktree rows and tests). */
export function initRepo(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'pipe' })
  git('init', '-q', '-b', 'main')
  git('add', '-A')
  git('commit', '-q', '-m', 'start')
}
