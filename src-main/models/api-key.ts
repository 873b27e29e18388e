import type { ProviderConfig } from '../../src-shared'
import type { KeyLimit } from '../config'
import { ModelAuthError } from './errors'
import type { KeyStore } from './key-store'

const DEFAULT_ENV: Partial<Record<ProviderConfig['type'], string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
}

export interface ApiKeyLookup {
  key: string | undefined
  source: 'config' | 'env' | 'key-store' | 'none'
  /** The env var consulted (apiKeyEnv, else the type's default), if any. */
  envName: string | undefined
  /** Why the person's keys were not considered (a workspace redefined the provider), when they were not. */
  withheld?: string
}

/** Key lookup order: config `apiKey` → env (`apiKeyEnv`, else the type's default) → key store; within `limit`. */
export function lookupApiKey(
  providerName: string,
  entry: ProviderConfig,
  ctx: { env: NodeJS.ProcessEnv; keys: KeyStore; limit?: KeyLimit },
): ApiKeyLookup {
  const limit = ctx.limit
  const envName = entry.apiKeyEnv ?? (!limit || limit.defaultEnv ? DEFAULT_ENV[entry.type] : undefined)
  if (entry.apiKey) return { key: entry.apiKey, source: 'config', envName }
  const fromEnv = envName ? ctx.env[envName] : undefined
  if (fromEnv) return { key: fromEnv, source: 'env', envName }
  const stored = !limit || limit.store ? ctx.keys.get(providerName) : undefined
  if (stored) return { key: stored, source: 'key-store', envName }
  return { key: undefined, source: 'none', envName, withheld: limit?.reason }
}

export function keyRequired(type: ProviderConfig['type']): boolean {
  return type === 'anthropic' || type === 'openai'
}

/** What the user should do about a missing or rejected key, phrased for where the key came from. */
export function keyHint(providerName: string, lookup: Pick<ApiKeyLookup, 'source' | 'envName'>): string {
  if (lookup.source === 'config') {
    return `Fix providers.${providerName}.apiKey in config.yaml, or remove it and add the key in Settings → Providers.`
  }
  if (lookup.envName) return `Set ${lookup.envName} or add the key in Settings → Providers.`
  return `Set providers.${providerName}.apiKey or apiKeyEnv in config.yaml, or add the key in Settings → Providers.`
}

export function missingKeyError(providerName: string, lookup: ApiKeyLookup): ModelAuthError {
  if (lookup.withheld) return new ModelAuthError(`provider "${providerName}" has no API key it may use: ${lookup.withheld}.`, { provider: providerName })
  return new ModelAuthError(`provider "${providerName}" has no API key. ${keyHint(providerName, lookup)}`, {
    provider: providerName,
  })
}

export function rejectedKeyError(
  providerName: string,
  statusCode: number,
  lookup: Pick<ApiKeyLookup, 'source' | 'envName'>,
  cause?: unknown,
): ModelAuthError {
  return new ModelAuthError(
    `provider "${providerName}" rejected the API key (${statusCode}). ${keyHint(providerName, lookup)}`,
    { provider: providerName, statusCode, cause },
  )
}
