import path from 'node:path'
import type { LanguageModelV4 } from '@ai-sdk/provider'
import type { Config, ModelRef, ProviderConfig } from '../../src-shared'
import type { KeyLimit } from '../config'
import { keyRequired, lookupApiKey, missingKeyError, rejectedKeyError, type ApiKeyLookup } from './api-key'
import { createDemoModel } from './demo-model'
import { ModelConfigError } from './errors'
import type { KeyStore } from './key-store'
import { createLazyModel } from './lazy-model'
import { formatModelRef } from './model-ref'
import { createScriptModel } from './script-model'

export interface ResolveContext {
  config: Config
  /** Directory of the config file, for relative `script:` paths. */
  configDir: string
  keys: KeyStore
  env: NodeJS.ProcessEnv
  /** The agent the model is for; the script and demo models answer per agent. */
  agentName: string
  /** Providers a workspace redefined: which of the person's keys they may not receive. */
  keyLimits?: Record<string, KeyLimit>
}

/** Env var naming the script YAML used by `script/<name>` when config has no `script` provider. */
export const SCRIPT_ENV = 'AGENTRY_SCRIPT'

/**
 * ModelRef → a LanguageModelV4 the loop can call. Checks config and keys now (so errors show
 * before a run starts) but loads provider SDKs only on the first call.
 */
export function resolveModel(ref: ModelRef, ctx: ResolveContext): LanguageModelV4 {
  const entry = ctx.config.providers[ref.provider]
  if (entry) return fromEntry(ref, entry, ctx)
  if (ref.provider === 'demo') return createDemoModel({ agentName: ctx.agentName, modelId: ref.model })
  if (ref.provider === 'script') {
    return createScriptModel({ file: scriptFromEnv(ref, ctx), agentName: ctx.agentName, modelId: ref.model })
  }
  throw new ModelConfigError(
    `model '${formatModelRef(ref)}': no provider '${ref.provider}' in config.yaml (providers: ${availableProviders(ctx).join(', ')}). Add it under providers: or pick another model.`,
  )
}

function availableProviders(ctx: ResolveContext): string[] {
  const names = Object.keys(ctx.config.providers)
  if (!names.includes('demo')) names.push('demo')
  if (ctx.env[SCRIPT_ENV] && !names.includes('script')) names.push('script')
  return names
}

function scriptFromEnv(ref: ModelRef, ctx: ResolveContext): string {
  const file = ctx.env[SCRIPT_ENV]
  if (!file) {
    throw new ModelConfigError(
      `model '${formatModelRef(ref)}': the script provider needs a script file. Set ${SCRIPT_ENV}=<path to a script YAML> or add a provider with type: script and script: <path> to config.yaml.`,
    )
  }
  return path.resolve(file)
}

function fromEntry(ref: ModelRef, entry: ProviderConfig, ctx: ResolveContext): LanguageModelV4 {
  const name = ref.provider
  switch (entry.type) {
    case 'demo':
      return createDemoModel({ agentName: ctx.agentName, modelId: ref.model })
    case 'script': {
      const file = entry.script ? path.resolve(ctx.configDir, entry.script) : scriptFromEnv(ref, ctx)
      return createScriptModel({ file, agentName: ctx.agentName, modelId: ref.model, provider: name })
    }
    default:
      return httpModel(ref, entry, ctx)
  }
}

function httpModel(ref: ModelRef, entry: ProviderConfig, ctx: ResolveContext): LanguageModelV4 {
  const name = ref.provider
  const lookup = lookupApiKey(name, entry, { env: ctx.env, keys: ctx.keys, limit: ctx.keyLimits?.[name] })
  if (lookup.key === undefined && keyRequired(entry.type)) throw missingKeyError(name, lookup)
  if (entry.type === 'openai-compatible' && !entry.baseURL) {
    throw new ModelConfigError(
      `providers.${name}.baseURL is required for type openai-compatible (e.g. "http://127.0.0.1:8080/v1"). Add it to config.yaml.`,
    )
  }
  return createLazyModel({
    provider: name,
    modelId: ref.model,
    load: () => loadHttpModel(ref, entry, lookup),
    onAuthError: (status, cause) => rejectedKeyError(name, status, lookup, cause),
  })
}

async function loadHttpModel(ref: ModelRef, entry: ProviderConfig, lookup: ApiKeyLookup): Promise<LanguageModelV4> {
  const apiKey = lookup.key
  switch (entry.type) {
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic')
      return createAnthropic({ apiKey, baseURL: entry.baseURL })(ref.model)
    }
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai')
      return createOpenAI({ apiKey, baseURL: entry.baseURL })(ref.model)
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible')
      // baseURL presence was checked in httpModel before this deferred load.
      const provider = createOpenAICompatible({ name: ref.provider, baseURL: entry.baseURL ?? '', apiKey, includeUsage: true })
      return provider.chatModel(ref.model)
    }
    case 'ollama': {
      // Ollama serves the OpenAI chat-completions API under /v1, so the same well-tested provider speaks to it
      // (and no Ollama-specific package, several of which need Node 22, is required).
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible')
      const provider = createOpenAICompatible({ name: ref.provider, baseURL: ollamaOpenAIBase(entry.baseURL), apiKey, includeUsage: true })
      return provider.chatModel(ref.model)
    }
    default:
      throw new ModelConfigError(`providers.${ref.provider}: type ${entry.type} is not an HTTP provider.`)
  }
}

/** Users write the server address ("http://127.0.0.1:11434", default); its OpenAI-compatible API lives under /v1. */
export function ollamaOpenAIBase(baseURL: string | undefined): string {
  const trimmed = (baseURL ?? 'http://127.0.0.1:11434').replace(/\/+$/, '').replace(/\/(api|v1)$/, '')
  return `${trimmed}/v1`
}
