import { describeWorkspace, TrustError } from '../trust'
import { HostError, type HostCalls } from '../../src-shared'
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
      else {
        try {
          d.trust.trust(root, files)
        } catch (err) {
          if (err instanceof TrustError) throw new HostError('conflict', err.message)
          throw err
        }
      }
      return { trust: describe(root) }
    },
  }
}
