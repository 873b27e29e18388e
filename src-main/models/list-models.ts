import { z } from 'zod'
import type { ProviderConfig } from '../../src-shared'
import type { KeyLimit } from '../config'
import { keyRequired, lookupApiKey } from './api-key'
import type { KeyStore } from './key-store'
import { ollamaOpenAIBase } from './resolve-model'

export interface ListedModel {
  id: string
  /** a display name, when the provider gives one (Anthropic does) */
  name: string | null
}

export type ModelList = { ok: true; models: ListedModel[]; url: string | null; note: string | null } | { ok: false; message: string }

export interface ListContext {
  env: NodeJS.ProcessEnv
  keys: KeyStore
  /** a workspace's provider may not receive some of the person's keys */
  limit?: KeyLimit
  /** a key typed into Settings but not saved yet (testing a draft) */
  key?: string
  timeoutMs?: number
}

const OpenAIModels = z.object({ data: z.array(z.object({ id: z.string() }).loose()) }).loose()
const AnthropicModels = z
  .object({ data: z.array(z.object({ id: z.string(), display_name: z.string().optional() }).loose()), has_more: z.boolean().optional(), last_id: z.string().nullable().optional() })
  .loose()

const MAX_PAGES = 5

/** Where a provider's model list lives: OpenAI's `/v1/models` shape for openai, openai-compatible and Ollama; Anthropic's own. */
function modelsUrl(entry: ProviderConfig): string | undefined {
  const trim = (u: string) => u.replace(/\/+$/, '')
  switch (entry.type) {
    case 'anthropic':
      return `${trim(entry.baseURL ?? 'https://api.anthropic.com/v1')}/models`
    case 'openai':
      return `${trim(entry.baseURL ?? 'https://api.openai.com/v1')}/models`
    case 'openai-compatible':
      return entry.baseURL ? `${trim(entry.baseURL)}/models` : undefined
    case 'ollama':
      return `${ollamaOpenAIBase(entry.baseURL)}/models`
    default:
      return undefined
  }
}

/**
 * The models a provider offers, from its own API — also the Settings "Test" (an authenticated request that proves
 * the URL and the key without spending tokens). Never throws: a failure comes back as a message saying what to fix.
 */
export async function listProviderModels(name: string, entry: ProviderConfig, ctx: ListContext): Promise<ModelList> {
  if (entry.type === 'demo') return { ok: true, models: [{ id: 'demo', name: 'Offline demo' }], url: null, note: null }
  if (entry.type === 'script') return { ok: true, models: [], url: null, note: 'A script provider answers to any model name; type one.' }
  const url = modelsUrl(entry)
  if (!url) return { ok: false, message: `"${name}" has no baseURL; set it (e.g. http://127.0.0.1:8080/v1).` }
  const lookup = ctx.key ? { key: ctx.key, envName: undefined, withheld: undefined } : lookupApiKey(name, entry, { env: ctx.env, keys: ctx.keys, limit: ctx.limit })
  if (keyRequired(entry.type) && !lookup.key) {
    if (lookup.withheld) return { ok: false, message: `"${name}" has no key it may use: ${lookup.withheld}.` }
    return { ok: false, message: `No key for "${name}". ${lookup.envName ? `Set ${lookup.envName} or add` : 'Add'} one in Settings › Providers.` }
  }
  const headers: Record<string, string> = { accept: 'application/json' }
  if (lookup.key) {
    if (entry.type === 'anthropic') Object.assign(headers, { 'x-api-key': lookup.key, 'anthropic-version': '2023-06-01' })
    else headers.authorization = `Bearer ${lookup.key}`
  }
  const signal = AbortSignal.timeout(ctx.timeoutMs ?? 10_000)
  const models: ListedModel[] = []
  let after: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const pageUrl = entry.type === 'anthropic' ? `${url}?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}` : url
    let res: Response
    try {
      res = await fetch(pageUrl, { headers, signal })
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : ''
      return { ok: false, message: `Could not reach "${name}" at ${url} (${(err as Error).message}${cause}). Check the base URL and that the server runs.` }
    }
    if (res.status === 401 || res.status === 403) return { ok: false, message: `"${name}" rejected the key (${res.status}) at ${url}. Check it and save it again.` }
    if (!res.ok) return { ok: false, message: `"${name}" answered ${res.status} at ${url}. Check the base URL (it usually ends in /v1).` }
    let body: unknown
    try {
      body = await res.json()
    } catch (err) {
      return { ok: false, message: `"${name}" at ${url} did not answer with JSON (${(err as Error).message}). Is this the API's base URL?` }
    }
    if (entry.type === 'anthropic') {
      const parsed = AnthropicModels.safeParse(body)
      if (!parsed.success) return { ok: false, message: `"${name}" at ${url} answered with an unexpected model list.` }
      models.push(...parsed.data.data.map((m) => ({ id: m.id, name: m.display_name ?? null })))
      if (!parsed.data.has_more || !parsed.data.last_id) break
      after = parsed.data.last_id
    } else {
      const parsed = OpenAIModels.safeParse(body)
      if (!parsed.success) return { ok: false, message: `"${name}" at ${url} answered with an unexpected model list (expected { data: [{ id }] }).` }
      models.push(...parsed.data.data.map((m) => ({ id: m.id, name: null })))
      break
    }
  }
  models.sort((a, b) => a.id.localeCompare(b.id))
  return { ok: true, models, url, note: null }
}
