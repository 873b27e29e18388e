import type { HostCalls } from '../../src-shared'
import { loadSkills } from '../skills'
import type { CallDeps } from './calls'

/** Settings › Skills and `agentry skills`: every skill found for a workspace, its source, problems, and whether offered. */
export function skillCalls(d: Pick<CallDeps, 'dataDir' | 'trust' | 'workspaces' | 'env'>): Pick<HostCalls, 'skills.list'> {
  return {
    'skills.list': async ({ workspaceRoot }) => {
      const root = d.workspaces.realFolder(workspaceRoot)
      const { skills, errors, folders } = loadSkills({ dataDir: d.dataDir, workdir: root, home: d.env.HOME, trusted: d.trust.state(root).status === 'trusted' })
      return { skills, errors, folders }
    },
  }
}
