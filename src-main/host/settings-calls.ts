import path from 'node:path'
import { budgetCandidate, budgetDefaults, budgetDraftErrors, budgetDraftOf, budgetDraftValues, defaultModelError, HostError, limitsErrors, type FieldErrors, type HostCalls, type ProviderConfig } from '../../src-shared'
import { readConfigLayer, writeConfigSettings, writeConfigValue, userConfigPath } from '../config'
import { formatModelRef, defaultModelRef, lookupApiKey, keyRequired } from '../models'
import { PERMISSIONS_FILE_NAME } from '../permissions'
import type { CallDeps } from './calls'
import { listGrants, revokeGrant, staticRuleRows } from './rule-listing'

type SettingsCallNames = 'settings.get' | 'settings.update' | 'settings.budgets' | 'providers.setKey' | 'providers.removeKey' | 'rules.list' | 'rules.revoke'

/** Settings, provider keys (never sent back to the renderer) and runtime permission rules. */
export function settingsCalls(d: CallDeps): Pick<HostCalls, SettingsCallNames> {
  const providerEntry = (name: string, workdir?: string): ProviderConfig => {
    const entry = d.config(workdir).config.providers[name]
    if (!entry) throw new HostError('not_found', `No provider "${name}" in config.yaml. Add it under providers: first.`)
    return entry
  }
  return {
    'settings.get': async ({ workspaceRoot }) => {
      const loaded = d.config(workspaceRoot)
      const personal = d.config().config
      const personalRules = path.join(d.dataDir, PERMISSIONS_FILE_NAME)
      const layers = d.staticRules(workspaceRoot ?? d.workspaces.defaultRoot)
      const permissionsFiles = [personalRules, ...(workspaceRoot ? [path.join(workspaceRoot, '.agents', PERMISSIONS_FILE_NAME)] : [])]
      const providers = Object.entries(loaded.config.providers).map(([name, entry]) => {
        const limit = loaded.keyLimits[name]
        const lookup = lookupApiKey(name, entry, { env: d.env, keys: d.keys, limit })
        const keySource = lookup.key ? (lookup.source === 'key-store' ? 'store' : lookup.source) : keyRequired(entry.type) ? 'none' : 'not_needed'
        const ws = loaded.workspaceProviders[name]
        const workspace = ws ? { file: ws.file, redefined: ws.redefined, keysWithheld: limit?.reason ?? null } : null
        const own = personal.providers[name]
        const mine = own ? { type: own.type, baseURL: own.baseURL ?? null } : null
        return { name, type: entry.type, baseURL: entry.baseURL ?? null, hasKey: Boolean(lookup.key), keySource: keySource as 'config' | 'env' | 'store' | 'none' | 'not_needed', workspace, personal: mine }
      })
      return {
        dataDir: d.dataDir,
        configFile: userConfigPath(d.dataDir),
        permissionsFiles,
        permissionErrors: layers.errors,
        staticRules: staticRuleRows(layers, personalRules),
        configIssues: loaded.issues,
        defaultModel: formatModelRef(defaultModelRef(loaded.config)),
        smallModel: loaded.config.smallModel ?? null,
        subagents: loaded.config.subagents,
        providers,
        // The person's own file only: a workspace's config.yaml cannot switch the sandbox.
        sandbox: { ...d.config().config.sandbox, state: await d.sandboxStatus(workspaceRoot ?? d.workspaces.defaultRoot) },
      }
    },
    'settings.update': async (patch) => {
      // The same per-field checks as the form, so a refusal names the field the person has to fix.
      const fields: FieldErrors = {}
      const providers = Object.keys(d.config().config.providers)
      for (const key of ['model', 'smallModel'] as const) {
        const value = patch[key]
        const problem = typeof value === 'string' ? defaultModelError(value, providers) : null
        if (problem) fields[key] = problem
      }
      for (const [k, reason] of Object.entries(patch.subagents ? limitsErrors(patch.subagents) : {})) fields[`subagents.${k}`] = reason
      if (Object.keys(fields).length) throw new HostError('config_error', Object.entries(fields).map(([f, r]) => `${f}: ${r}`).join(' '), { fields })
      try {
        writeConfigValue(d.dataDir, patch)
      } catch (err) {
        throw new HostError('config_error', (err as Error).message)
      }
      return { ok: true as const }
    },
    'settings.budgets': async ({ set }) => {
      if (set) {
        const fields = budgetDraftErrors(set)
        if (Object.keys(fields).length) throw new HostError('config_error', Object.entries(fields).map(([f, r]) => `${f}: ${r}`).join(' '), { fields })
        const values = budgetDraftValues(set)
        try {
          writeConfigSettings(d.dataDir, values, budgetCandidate(values))
        } catch (err) {
          throw new HostError('config_error', (err as Error).message)
        }
      }
      // The person's own file as written (defaults not applied): an empty field means "not set", never a copied default.
      return { values: budgetDraftOf(readConfigLayer(userConfigPath(d.dataDir)).clean), defaults: budgetDefaults() }
    },
    'providers.setKey': async ({ provider, key }) => {
      providerEntry(provider)
      d.keys.set(provider, key)
      return { ok: true as const }
    },
    'providers.removeKey': async ({ provider }) => {
      d.keys.remove(provider)
      return { ok: true as const }
    },
    'rules.list': async ({ workspaceRoot, sessionId }) => ({ rules: listGrants(d, { workspaceRoot, sessionId }) }),
    'rules.revoke': async ({ ruleId }) => ({ revoked: revokeGrant(d, ruleId) }),
  }
}
