import { describeWorkspace } from '../trust'
import type { HostCalls } from '../../src-shared'
import type { CallDeps } from './calls'

/** The person's trust in a workspace: what its files change, trust (pinned to the files shown) and revoke. */
export function trustCalls(d: CallDeps): Pick<HostCalls, 'trust.get' | 'trust.set'> {
  const rootOf = (given: string): string => d.workspaces.realFolder(given)
  const describe = (root: string) => describeWorkspace(d.dataDir, root, d.trust, d.registry.resolve(root).agents)
  return {
    'trust.get': async ({ workspaceRoot }) => ({ trust: describe(rootOf(workspaceRoot)) }),
    'trust.set': async ({ workspaceRoot, trusted, files }) => {
      const root = rootOf(workspaceRoot)
      if (!trusted) d.trust.revoke(root)
      else d.trust.trust(root, files)
      return { trust: describe(root) }
    },
  }
}
