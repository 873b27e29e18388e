import path from 'node:path'
import { loadConfig, type LoadedConfig } from '../config'
import { loadStaticRules, PERMISSIONS_FILE_NAME, type Ruleset, type StaticRulesError } from '../permissions'
import { stampFiles, type TrustList, type TrustState } from './trust-list'

/** The static rules of a workspace, split by who may do what (see permissions' LayeredRules). */
export interface StaticLayers {
  /** the person's rules, followed by the workspace's when the person trusts it (last match wins) */
  static: Ruleset
  /** an untrusted workspace's rules: they may tighten, never loosen */
  workspace: Ruleset
  /** every rules file that could not be used (each stands in as ask-all) */
  errors: StaticRulesError[]
}

/** Configuration and rules of a workspace as the person's trust allows them. */
export interface WorkspaceSettings {
  config: LoadedConfig
  rules: StaticLayers
  trust: TrustState
}

export const YOUR_RULES_LABEL = 'your permissions.jsonc'
export const WORKSPACE_RULES_LABEL = "the workspace's .agents/permissions.jsonc"

/**
 * The person's files, then the workspace's within limits: an untrusted workspace may tighten rules but never
 * loosen them, and may not route the person's keys (see config's limitWorkspaceProviders). A trusted one — trust
 * pinned to the files' exact content — layers like the person's own files.
 */
export function loadWorkspaceSettings(dataDir: string, workdir: string, trust: TrustList): WorkspaceSettings {
  const state = trust.state(workdir)
  const loaded = layered(dataDir, workdir, state)
  // Trust covers what was hashed; a file rewritten between hashing and reading could slip in unseen content.
  const now = stampFiles(workdir)
  const moved = state.files.some((f) => now.find((n) => n.path === f.path)?.sha256 !== f.sha256)
  if (!moved || state.status !== 'trusted') return loaded
  return layered(dataDir, workdir, { ...trust.state(workdir), status: 'changed' })
}

function layered(dataDir: string, workdir: string, state: TrustState): WorkspaceSettings {
  const trusted = state.status === 'trusted'
  const person = loadStaticRules([{ file: path.join(dataDir, PERMISSIONS_FILE_NAME), label: YOUR_RULES_LABEL }])
  const ws = loadStaticRules([
    { file: path.join(workdir, '.agents', PERMISSIONS_FILE_NAME), label: trusted ? `${WORKSPACE_RULES_LABEL} (trusted)` : WORKSPACE_RULES_LABEL },
  ])
  return {
    config: loadConfig(dataDir, workdir, { trusted }),
    rules: {
      static: trusted ? [...person.rules, ...ws.rules] : person.rules,
      workspace: trusted ? [] : ws.rules,
      errors: [...person.errors, ...ws.errors],
    },
    trust: state,
  }
}
