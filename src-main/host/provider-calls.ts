import { HostError, providerDraftErrors, providerEntryOf, type FieldErrors, type HostCalls, type ProviderConfig, type ProviderDraft } from '../../src-shared'
import { writeConfigValue, writeProviderEntry } from '../config'
import { acceptsImages, defaultModelRef, listProviderModels, modelInfo, parseModelRef, formatModelRef } from '../models'
import type { CallDeps } from './calls'

type ProviderCallNames = 'providers.save' | 'providers.remove' | 'providers.test' | 'models.list' | 'models.info'

/** Built-in model sources that need no entry in config.yaml. */
const BUILT_IN: Record<string, ProviderConfig> = { demo: { type: 'demo' }, script: { type: 'script' } }

/**
 * Providers as Settings edits them — only in the person's own config.yaml (a workspace's file is never written,
 * and its providers never get the person's keys beyond what the trust rules allow) — and the model picker's lists.
 */
export function providerCalls(d: CallDeps): Pick<HostCalls, ProviderCallNames> {
  const personal = () => d.config().config
  const invalid = (fields: FieldErrors): HostError =>
    new HostError('config_error', Object.entries(fields).map(([f, reason]) => `${f}: ${reason}`).join(' '), { fields })

  return {
    'providers.save': async ({ draft, adding }) => {
      const own = personal().providers
      const errors = providerDraftErrors(draft, { existing: Object.keys(own), adding })
      const name = draft.name.trim()
      if (!adding && !errors.name && !own[name]) errors.name = `"${name}" is not in your config.yaml (a workspace may define it); add it as a new provider instead.`
      if (Object.keys(errors).length) throw invalid(errors)
      try {
        writeProviderEntry(d.dataDir, name, providerEntryOf(draft))
      } catch (err) {
        throw new HostError('config_error', (err as Error).message)
      }
      if (draft.key.trim()) d.keys.set(name, draft.key)
      return { ok: true as const }
    },
    'providers.remove': async ({ provider }) => {
      const config = personal()
      if (!config.providers[provider]) throw new HostError('not_found', `"${provider}" is not in your config.yaml, so there is nothing to remove there.`)
      if (defaultModelRef(config).provider === provider) {
        throw new HostError('conflict', `The default model (${formatModelRef(defaultModelRef(config))}) uses "${provider}". Pick another default model first, then remove it.`)
      }
      try {
        writeConfigValue(d.dataDir, { providers: { [provider]: null } })
      } catch (err) {
        throw new HostError('config_error', (err as Error).message)
      }
      d.keys.remove(provider)
      return { ok: true as const }
    },
    'providers.test': async ({ provider, draft }) => {
      const entry = draft ? draftEntry(draft, provider, d) : providerEntry(provider, d)
      if ('message' in entry) return { ok: false, message: entry.message }
      const listed = await listProviderModels(provider, entry.config, { env: d.env, keys: d.keys, key: entry.key, limit: entry.limit })
      if (!listed.ok) return { ok: false, message: listed.message }
      const where = listed.url ? ` at ${listed.url}` : ''
      return { ok: true, message: `"${provider}" answered${where}: ${listed.models.length} model${listed.models.length === 1 ? '' : 's'}${listed.note ? `. ${listed.note}` : ''}.` }
    },
    'models.list': async ({ provider, workspaceRoot }) => {
      const loaded = d.config(workspaceRoot)
      const entry = loaded.config.providers[provider] ?? BUILT_IN[provider]
      if (!entry) throw new HostError('not_found', `No provider "${provider}". Add it in Settings › Providers.`)
      const listed = await listProviderModels(provider, entry, { env: d.env, keys: d.keys, limit: loaded.keyLimits[provider] })
      if (!listed.ok) throw new HostError('unavailable', listed.message)
      return { models: listed.models, note: listed.note }
    },
    'models.info': async ({ model, workspaceRoot }) => {
      let ref
      try {
        ref = parseModelRef(model.trim())
      } catch (err) {
        throw new HostError('config_error', (err as Error).message, { fields: { model: 'Write it as provider/model.' } })
      }
      const config = d.config(workspaceRoot).config
      const info = await modelInfo(ref, config)
      return { model: formatModelRef(ref), contextWindow: info.contextWindow, contextWindowKnown: info.contextWindowKnown, pricing: info.pricing, pricingSource: info.pricingSource, images: acceptsImages(ref, config) }
    },
  }
}

type Testable = { config: ProviderConfig; key?: string; limit?: { store: boolean; defaultEnv: boolean; reason: string } } | { message: string }

function providerEntry(name: string, d: CallDeps): Testable {
  const loaded = d.config()
  const entry = loaded.config.providers[name] ?? BUILT_IN[name]
  if (!entry) return { message: `No provider "${name}" in config.yaml. Add it first.` }
  return { config: entry, limit: loaded.keyLimits[name] }
}

/**
 * A provider as typed in the form, not saved: tested with the key typed there; without one, with the saved key only
 * if type and URL are what was saved (a key is never sent to an address it was not saved for).
 */
function draftEntry(draft: ProviderDraft, name: string, d: CallDeps): Testable {
  const own = d.config().config.providers[name]
  const errors = providerDraftErrors({ ...draft, name }, { existing: [], adding: false })
  const first = Object.values(errors)[0]
  if (first) return { message: first }
  const config = providerEntryOf(draft)
  if (draft.key.trim()) return { config, key: draft.key.trim() }
  const unchanged = own !== undefined && own.type === config.type && (own.baseURL ?? '') === (config.baseURL ?? '')
  if (unchanged) return { config: own }
  return { config, limit: { store: false, defaultEnv: !config.baseURL, reason: 'its type or URL changed; paste the key to test with it' } }
}
