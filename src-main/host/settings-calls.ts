import path from 'node:path'
import { type ProviderConfig, HostError, type HostCalls } from '../../src-shared'
import { writeConfigValue, userConfigPath } from '../config'
import { formatModelRef, defaultModelRef, lookupApiKey, keyRequired } from '../models'
import { PERMISSIONS_FILE_NAME } from '../permissions'
import type { CallDeps } from './calls'

type SettingsCallNames = 'settings.get' | 'settings.update' | 'providers.setKey' | 'providers.removeKey' | 'providers.test' | 'rules.list' | 'rules.revoke'

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
      const permissionsFiles = [path.join(d.dataDir, PERMISSIONS_FILE_NAME), ...(workspaceRoot ? [path.join(workspaceRoot, '.agents', PERMISSIONS_FILE_NAME)] : [])]
      const providers = Object.entries(loaded.config.providers).map(([name, entry]) => {
        const limit = loaded.keyLimits[name]
        const lookup = lookupApiKey(name, entry, { env: d.env, keys: d.keys, limit })
        const keySource = lookup.key ? (lookup.source === 'key-store' ? 'store' : lookup.source) : keyRequired(entry.type) ? 'none' : 'not_needed'
        const ws = loaded.workspaceProviders[name]
        const workspace = ws ? { file: ws.file, redefined: ws.redefined, keysWithheld: limit?.reason ?? null } : null
        return { name, type: entry.type, baseURL: entry.baseURL ?? null, hasKey: Boolean(lookup.key), keySource: keySource as 'config' | 'env' | 'store' | 'none' | 'not_needed', workspace }
      })
      return {
        dataDir: d.dataDir,
        configFile: userConfigPath(d.dataDir),
        permissionsFiles,
        permissionErrors: d.staticRules(workspaceRoot ?? d.workspaces.defaultRoot).errors,
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
      try {
        writeConfigValue(d.dataDir, patch)
      } catch (err) {
        throw new HostError('config_error', (err as Error).message)
      }
      return { ok: true as const }
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
    'providers.test': async ({ provider }) => testProvider(provider, providerEntry(provider), d),
    'rules.list': async ({ workspaceRoot, sessionId }) => {
      const rules = d.rules.listRules()
      return {
        rules: rules.filter(
          (r) => (!workspaceRoot && !sessionId) || (workspaceRoot && r.scope === 'workspace' && r.scopeKey === workspaceRoot) || (sessionId && r.scope === 'session' && r.scopeKey === sessionId),
        ),
      }
    },
    'rules.revoke': async ({ ruleId }) => ({ revoked: d.rules.revokeRule(ruleId) }),
  }
}

/** A cheap authenticated request (the provider's model list) — proves the URL and key without spending tokens. */
async function testProvider(name: string, entry: ProviderConfig, d: CallDeps): Promise<{ ok: boolean; message: string }> {
  const lookup = lookupApiKey(name, entry, { env: d.env, keys: d.keys })
  if (keyRequired(entry.type) && !lookup.key) return { ok: false, message: `No key for "${name}". Set ${lookup.envName ?? 'a key'} or add one here.` }
  const base = entry.baseURL ?? (entry.type === 'anthropic' ? 'https://api.anthropic.com/v1' : entry.type === 'openai' ? 'https://api.openai.com/v1' : undefined)
  if (!base) return { ok: true, message: `"${name}" (${entry.type}) needs no network check.` }
  const url = entry.type === 'ollama' ? `${base.replace(/\/$/, '')}/api/tags` : `${base.replace(/\/$/, '')}/models`
  const headers: Record<string, string> = {}
  if (lookup.key) {
    if (entry.type === 'anthropic') Object.assign(headers, { 'x-api-key': lookup.key, 'anthropic-version': '2023-06-01' })
    else headers.authorization = `Bearer ${lookup.key}`
  }
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) })
    if (res.status === 401 || res.status === 403) return { ok: false, message: `"${name}" rejected the key (${res.status}). Check it and save it again.` }
    if (!res.ok) return { ok: false, message: `"${name}" answered ${res.status} at ${url}.` }
    return { ok: true, message: `"${name}" answered at ${url}; the key works.` }
  } catch (err) {
    return { ok: false, message: `Could not reach "${name}" at ${url}: ${(err as Error).message}` }
  }
}
