import ipaddr from 'ipaddr.js'
import type { Config, ModelPricing, ModelRef, TokenUsage } from '../../src-shared'

/** Assumed when neither config.yaml nor the price table knows the model's context window. */
export const DEFAULT_CONTEXT_WINDOW = 128_000

/** Offline and local models cost nothing. */
const FREE_TYPES = new Set(['demo', 'script', 'ollama'])

export type PricingSource = 'config' | 'table' | 'free'

/** What the host knows about a model: its context window and price, and where each came from. */
export interface ModelInfo {
  contextWindow: number
  /** false: DEFAULT_CONTEXT_WINDOW is assumed */
  contextWindowKnown: boolean
  /** USD per million tokens (the base price; the table may have tiers for long prompts) */
  pricing: { input: number; output: number } | null
  pricingSource: PricingSource | null
  /** the cost of one model step's usage; null when the price is unknown */
  cost(usage: TokenUsage): number | null
}

type PriceTable = typeof import('@pydantic/genai-prices')
let table: Promise<PriceTable> | undefined
/** The maintained price table (@pydantic/genai-prices, data bundled): loaded on first use, never at start-up. */
const loadTable = (): Promise<PriceTable> => (table ??= import('@pydantic/genai-prices'))

function providerType(ref: ModelRef, config: Config): string | undefined {
  const entry = config.providers[ref.provider]
  if (entry) return entry.type
  // Built-ins that work without a config entry.
  if (ref.provider === 'demo' || ref.provider === 'script') return ref.provider
  return undefined
}

/**
 * How to find a model in the price table: Anthropic's and OpenAI's own models by provider; an openai-compatible
 * server only when its URL is a known provider's (OpenRouter, Groq, …) — a local server's `gpt-4o` is not priced.
 */
function tableQuery(ref: ModelRef, config: Config): { providerId?: string; providerApiUrl?: string } | undefined {
  const entry = config.providers[ref.provider]
  if (!entry) return undefined
  if (entry.type === 'anthropic' || entry.type === 'openai') return { providerId: entry.type }
  // A server on this machine or the local network is never a public provider's endpoint: the table (half a megabyte
  // of data, a noticeable share of a one-shot command's start) is not loaded to learn that.
  if (entry.type === 'openai-compatible' && entry.baseURL && !onLocalNetwork(entry.baseURL)) return { providerApiUrl: entry.baseURL }
  return undefined
}

/** Whether a base URL names this machine or a private network: an IP outside the public ranges, or a local name. */
export function onLocalNetwork(baseURL: string): boolean {
  let host: string
  try {
    host = new URL(baseURL).hostname.replace(/^\[|\]$/g, '').toLowerCase()
  } catch (err) {
    // Not a URL at all: resolve-model reports it when the model is used; no price either way.
    if (err instanceof TypeError) return true
    throw err
  }
  if (ipaddr.isValid(host)) return ipaddr.process(host).range() !== 'unicast'
  return !host.includes('.') || /\.(localhost|local|internal|lan|home\.arpa)$/.test(host)
}

const perMillion = (p: unknown): number | undefined => {
  if (typeof p === 'number') return p
  if (p && typeof p === 'object' && 'base' in p && typeof p.base === 'number') return p.base
  return undefined
}

const toTableUsage = (u: TokenUsage) => ({
  input_tokens: u.prompt,
  output_tokens: u.completion,
  cache_read_tokens: u.cacheRead || undefined,
  cache_write_tokens: u.cacheWrite || undefined,
})

/**
 * Context window and price of a model. Precedence: `providers.X.models.Y` in config.yaml (the person's override),
 * then the price table, then free for offline/local providers; otherwise unknown (cost shown as unknown, never 0).
 */
export async function modelInfo(ref: ModelRef, config: Config): Promise<ModelInfo> {
  const configured = config.providers[ref.provider]?.models?.[ref.model]
  const query = tableQuery(ref, config)
  const found = query ? await lookup(ref.model, query) : undefined
  const contextWindow = configured?.contextWindow ?? found?.contextWindow
  const base = { contextWindow: contextWindow ?? DEFAULT_CONTEXT_WINDOW, contextWindowKnown: contextWindow !== undefined }
  if (configured?.pricing) {
    const prices = configured.pricing
    return { ...base, pricing: { input: prices.input, output: prices.output }, pricingSource: 'config', cost: (u) => configuredCost(u, prices) }
  }
  if (found?.pricing && found.cost) return { ...base, pricing: found.pricing, pricingSource: 'table', cost: found.cost }
  const type = providerType(ref, config)
  if (type !== undefined && FREE_TYPES.has(type)) return { ...base, pricing: { input: 0, output: 0 }, pricingSource: 'free', cost: () => 0 }
  return { ...base, pricing: null, pricingSource: null, cost: () => null }
}

/**
 * USD for one step at the person's configured prices (per million tokens). Input tokens served from the provider's
 * prompt cache, and those written to it, are priced at their own rates (`prompt` counts them too: they are taken out
 * of the plain input); unset cache rates default to Anthropic's ratios (10 % / 125 % of input).
 */
export function configuredCost(usage: TokenUsage, pricing: ModelPricing): number {
  const cacheRead = usage.cacheRead ?? 0
  const cacheWrite = usage.cacheWrite ?? 0
  const plain = Math.max(0, usage.prompt - cacheRead - cacheWrite)
  const readRate = pricing.cacheRead ?? pricing.input * 0.1
  const writeRate = pricing.cacheWrite ?? pricing.input * 1.25
  return (plain * pricing.input + cacheRead * readRate + cacheWrite * writeRate + usage.completion * pricing.output) / 1_000_000
}

async function lookup(
  modelId: string,
  query: { providerId?: string; providerApiUrl?: string },
): Promise<{ contextWindow?: number; pricing?: { input: number; output: number }; cost?: (u: TokenUsage) => number | null } | undefined> {
  const { calcPrice } = await loadTable()
  const probe = calcPrice({ input_tokens: 1, output_tokens: 1 }, modelId, query)
  if (!probe) return undefined
  const input = perMillion(probe.model_price.input_mtok)
  const output = perMillion(probe.model_price.output_mtok)
  return {
    contextWindow: probe.model.context_window,
    pricing: input !== undefined && output !== undefined ? { input, output } : undefined,
    // Per step: the table applies long-prompt tiers and cache prices to each request, as providers bill them.
    cost: (u) => calcPrice(toTableUsage(u), modelId, query)?.total_price ?? null,
  }
}

/** Whether a model is sent the images of a prompt: config.yaml's `images` for it, else by its provider's type. */
export function acceptsImages(ref: ModelRef, config: Config): boolean {
  const provider = config.providers[ref.provider]
  const configured = provider?.models?.[ref.model]?.images
  if (configured !== undefined) return configured
  // Anthropic's and OpenAI's current models all see images; behind chat-completions servers many small models do not,
  // and a request with an image fails outright there, so those say so in config.yaml. The script provider records
  // what it is sent (tests).
  // (`script/x` without a provider entry is the built-in script provider of AGENTRY_SCRIPT.)
  const type = provider?.type ?? (ref.provider === 'script' ? 'script' : undefined)
  return type === 'anthropic' || type === 'openai' || type === 'script'
}

/**
 * Whether a model of this provider takes images in tool results (an MCP server's screenshot): Anthropic's Messages
 * API and OpenAI's Responses API do; the chat-completions API behind openai-compatible and Ollama takes only text
 * there (the AI SDK would inline the image as JSON text), so those get the text that names the image.
 */
export function acceptsToolResultImages(ref: ModelRef, config: Config): boolean {
  const type = config.providers[ref.provider]?.type
  return type === 'anthropic' || type === 'openai'
}
