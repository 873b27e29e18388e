import type { HostCalls } from '../../src-shared'
import { hookFiles, loadHooks } from '../hooks'
import type { CallDeps } from './calls'

/** Settings › Hooks: every hook read for a workspace, where it came from, whether it runs, and what could not be used. */
export function hookCalls(d: Pick<CallDeps, 'dataDir' | 'trust' | 'workspaces' | 'env'>): Pick<HostCalls, 'hooks.list'> {
  return {
    'hooks.list': async ({ workspaceRoot }) => {
      const root = workspaceRoot ? d.workspaces.realFolder(workspaceRoot) : d.workspaces.defaultRoot
      const set = loadHooks(hookFiles({ dataDir: d.dataDir, workdir: root, home: d.env.HOME || undefined }), { trusted: d.trust.state(root).status === 'trusted' })
      const untrusted = set.all.filter((h) => !h.active)
      const waiting = [...new Set(untrusted.map((h) => h.source))].map((file) => ({
        file,
        path: 'hooks',
        reason: 'these workspace hooks run only once you trust this workspace (Settings › Workspace, or `agentry trust`)',
      }))
      return {
        hooks: set.all.map(({ event, matcher, command, timeoutSeconds, source, active }) => ({ event, matcher, command, timeoutSeconds, source, active })),
        problems: [...set.problems, ...waiting],
      }
    },
  }
}
