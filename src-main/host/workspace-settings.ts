import path from 'node:path'
import type { AgentRegistry } from '../agents'
import { loadConfig, projectConfigPath, userConfigPath, type LoadedConfig } from '../config'
import { PERMISSIONS_FILE_NAME } from '../permissions'
import type { RunSettings } from '../runtime'
import { loadSkills } from '../skills'
import { hookFiles, loadHooks } from '../hooks'
import { loadWorkspaceSettings, TRUST_FILE_NAME, TrustList, type WorkspaceSettings } from '../trust'
import { cachedByFiles } from './file-cache'

export interface SettingsSource {
  readonly trust: TrustList
  /** the person's configuration alone (no workspace) */
  personal(): LoadedConfig
  /** a workspace's configuration and rules as the person's trust allows, as on disk now */
  forWorkspace(workdir: string): WorkspaceSettings
  /** what a run takes with it when its prompt starts (see RunSettings) */
  forRun(workdir: string): RunSettings
}

/** The person's and the workspace's files, layered by trust; re-read only when one of them (or trust.json) changed. */
export function createSettingsSource(dataDir: string, registry: AgentRegistry, home?: string): SettingsSource {
  const trust = new TrustList(dataDir)
  const personal = cachedByFiles(() => loadConfig(dataDir))
  const layered = cachedByFiles((files) => loadWorkspaceSettings(dataDir, path.dirname(path.dirname(files[1])), trust))
  const forWorkspace = (workdir: string): WorkspaceSettings =>
    layered([
      userConfigPath(dataDir),
      projectConfigPath(workdir),
      path.join(dataDir, PERMISSIONS_FILE_NAME),
      path.join(workdir, '.agents', PERMISSIONS_FILE_NAME),
      path.join(dataDir, TRUST_FILE_NAME),
    ])
  return {
    trust,
    personal: () => personal([userConfigPath(dataDir)]),
    forWorkspace,
    forRun(workdir) {
      const { config, rules, trust: state } = forWorkspace(workdir)
      // Skills are read when each prompt starts (like agent files): a new or edited skill applies from the next one.
      const { skills } = loadSkills({ dataDir, workdir, home, trusted: state.status === 'trusted' })
      // Hooks too: read once per run (the snapshot), never per tool call.
      const hooks = loadHooks(hookFiles({ dataDir, workdir, home: home || undefined }), { trusted: state.status === 'trusted' })
      return { config, rules, agents: registry.resolve(workdir).agents, skills, hooks }
    },
  }
}
