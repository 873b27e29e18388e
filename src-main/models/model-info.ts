import type { Config, ModelRef } from '../../src-shared'

export const DEFAULT_CONTEXT_WINDOW = 128_000

/** Offline models cost nothing; anything else is priced only when config says so. */
const FREE_TYPES = new Set(['demo', 'script'])

function providerType(ref: ModelRef, config: Config): string | undefined {
  const entry = config.providers[ref.provider]
  if (entry) return entry.type
  // Built-ins that work without a config entry.
  if (ref.provider === 'demo' || ref.provider === 'script') return ref.provider
  return undefined
}

/** USD per million tokens, or undefined when the price is unknown (cost shows as unknown, not 0). */
export function pricingFor(ref: ModelRef, config: Config): { input: number; output: number } | undefined {
  const configured = config.providers[ref.provider]?.models?.[ref.model]?.pricing
  if (configured) return { input: configured.input, output: configured.output }
  const type = providerType(ref, config)
  if (type !== undefined && FREE_TYPES.has(type)) return { input: 0, output: 0 }
  return undefined
}

export function contextWindowFor(ref: ModelRef, config: Config): number {
  return config.providers[ref.provider]?.models?.[ref.model]?.contextWindow ?? DEFAULT_CONTEXT_WINDOW
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
