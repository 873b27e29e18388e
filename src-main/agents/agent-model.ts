import { DEFAULT_MODEL_ALIASES, ProviderType, type AgentModelResolution, type Config, type ModelRef } from '../../src-shared'

export type ModelResolution = AgentModelResolution & {
  /** the model to run on; undefined = inherit (the caller's model, or the session's for a primary agent) */
  modelRef?: ModelRef
  /** set when the file names a model that cannot be used here: what happens instead and how to fix it */
  warning?: string
}

/** Providers that need no entry in config.yaml. */
const IMPLICIT_PROVIDERS = new Set(['demo', 'script'])

/** Bare model ids whose provider is clear from the name (`claude-sonnet-4-20250514` is Anthropic's). */
const INFERRED: { re: RegExp; type: ProviderType }[] = [
  { re: /^claude-/i, type: 'anthropic' },
  { re: /^(gpt-|chatgpt-|o\d(\b|-)|codex-)/i, type: 'openai' },
]

/** The alias table in force: the defaults, then config.yaml's `models.aliases` over them. */
export function modelAliases(config: Config): Record<string, string> {
  return { ...DEFAULT_MODEL_ALIASES, ...config.models?.aliases }
}

/**
 * What an agent file's `model:` means with this configuration: `inherit`, `provider/model`, an alias from
 * `models.aliases` (`sonnet`), or a bare model id whose provider is clear (`claude-…`). A model whose provider
 * is not configured is not an error: the agent runs on the inherited model, and the warning says how to map it.
 */
export function resolveAgentModel(spec: string, config: Config): ModelResolution {
  const value = spec.trim()
  if (value === '' || value === 'inherit') return { spec, ref: null, via: 'inherit', detail: 'inherits the model of the session or the calling agent' }
  const aliases = modelAliases(config)
  const aliasKey = Object.hasOwn(aliases, value) ? value : Object.keys(aliases).find((k) => k.toLowerCase() === value.toLowerCase())
  let target: string
  let via: AgentModelResolution['via']
  let how: string
  if (aliasKey !== undefined) {
    target = aliases[aliasKey]
    via = 'alias'
    const own = config.models?.aliases && Object.hasOwn(config.models.aliases, aliasKey)
    how = `alias "${aliasKey}" (${own ? 'models.aliases in config.yaml' : 'default models.aliases'})`
  } else if (value.includes('/')) {
    target = value
    via = 'explicit'
    how = `"${value}"`
  } else {
    const inferred = INFERRED.find((i) => i.re.test(value))
    if (!inferred) {
      return unresolved(spec, `model "${value}" is neither "provider/model" nor an alias in models.aliases`, value)
    }
    target = `${inferred.type}/${value}`
    via = 'inferred'
    how = `model id "${value}" (an ${inferred.type} model)`
  }
  const slash = target.indexOf('/')
  const wanted = target.slice(0, slash)
  const model = target.slice(slash + 1)
  const provider = findProvider(wanted, config)
  if (!provider) {
    const missing = `${how} → ${target}, but no "${wanted}" provider is configured`
    return (aliasKey !== undefined && tierFallback(spec, aliasKey, missing, config)) || unresolved(spec, missing, value, wanted)
  }
  const ref = `${provider}/${model}`
  const through = provider === wanted ? '' : ` (provider "${provider}", type ${wanted})`
  return { spec, ref, via, detail: via === 'explicit' ? `${ref}${through}` : `${how} → ${ref}${through}`, modelRef: { provider, model } }
}

/** The configured provider named `wanted`; else, when `wanted` is a provider type (`anthropic`), the first of that type. */
function findProvider(wanted: string, config: Config): string | undefined {
  if (Object.hasOwn(config.providers, wanted) || IMPLICIT_PROVIDERS.has(wanted)) return wanted
  const type = ProviderType.safeParse(wanted)
  if (!type.success) return undefined
  return Object.entries(config.providers).find(([, p]) => p.type === type.data)?.[0]
}

/**
 * Agent files written for Claude Code name a tier (`model: haiku`), not a model. A person with only OpenAI or a local
 * model still has tiers: `haiku` is their small model (`smallModel`, else the default), `sonnet` and `opus` their
 * default model. Only when the alias's own provider is missing, and only for these tier names.
 */
const TIERS: Record<string, 'small' | 'default'> = { haiku: 'small', sonnet: 'default', opus: 'default', fable: 'default' }

function tierFallback(spec: string, alias: string, missing: string, config: Config): ModelResolution | undefined {
  const tier = TIERS[alias.toLowerCase()]
  if (!tier) return undefined
  const small = tier === 'small' && config.smallModel ? config.smallModel : undefined
  const target = small ?? config.model
  if (!target) return undefined
  const slash = target.indexOf('/')
  const modelRef = { provider: target.slice(0, slash), model: target.slice(slash + 1) }
  const which = small ? 'the small model (smallModel)' : 'the default model (model)'
  return { spec, ref: target, via: 'tier', detail: `${missing}: ${which} ${target} instead`, modelRef }
}

/**
 * What a call's `model` may name with this configuration, in words, for the `task` schema: the aliases that resolve
 * (tiers included) and `provider/model` with the configured providers.
 */
export function modelChoices(config: Config): string {
  const aliases = Object.keys(modelAliases(config)).filter((a) => resolveAgentModel(a, config).modelRef)
  const providers = Object.keys(config.providers).filter((p) => !IMPLICIT_PROVIDERS.has(p))
  const named = aliases.map((a) => `"${a}"`).join(', ')
  const any = providers.length ? `"provider/model" with provider ${providers.map((p) => `"${p}"`).join(' or ')}` : '"provider/model"'
  return named ? `${named}, or ${any}` : any
}

function unresolved(spec: string, what: string, alias: string, provider?: string): ModelResolution {
  const addProvider = !provider
    ? ''
    : ProviderType.safeParse(provider).success
      ? `add a provider of type ${provider} under providers: in config.yaml, or `
      : `add a provider named "${provider}" under providers: in config.yaml, or `
  const warning = `${what}: runs on the inherited model instead. To use it, ${addProvider}map it in config.yaml: models: { aliases: { "${alias}": provider/model } }`
  return { spec, ref: null, via: 'unresolved', detail: `${what}; inherits the model of the session or the calling agent`, warning }
}

/**
 * A model one `task` call asks for (`model: haiku`, `model: openai/gpt-5`): unlike an agent file's, a name that
 * cannot be used here is an error for the calling model, which lists what it can choose from instead.
 */
export function resolveCallModel(spec: string, config: Config): { modelRef: ModelRef } | { error: string } {
  const resolved = resolveAgentModel(spec, config)
  if (resolved.modelRef) return { modelRef: resolved.modelRef }
  const aliases = Object.keys(modelAliases(config)).filter((a) => resolveAgentModel(a, config).modelRef)
  const providers = [...new Set([...Object.keys(config.providers), ...IMPLICIT_PROVIDERS])].map((p) => `${p}/<model>`)
  const why = resolved.via === 'inherit' ? `model "${spec}" names no model` : resolved.detail.replace(/; inherits.*$/, '')
  const choices = [...aliases.map((a) => `"${a}"`), ...providers].join(', ')
  return { error: `${why}. Choose one of: ${choices}; or leave model out to use the agent's own model.` }
}
