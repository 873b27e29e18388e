import type { LanguageModelV4ProviderTool } from '@ai-sdk/provider'
import type { Config, ModelRef } from '../../src-shared'

/** A tool the provider runs itself (the AI SDK exposes it as a provider tool); it exists only for runs on that provider. */
export interface NativeTool {
  name: string
  description: string
  spec: LanguageModelV4ProviderTool
}

const WEB_SEARCH = 'web_search'
const WEB_SEARCH_DESCRIPTION = 'Search the web. The provider runs the search and returns the results with their sources; cite the URLs you use.'

/**
 * Native tools of the model's provider: web search on Anthropic (`web_search_20250305`, at most 5 searches per
 * request) and OpenAI (Responses API `web_search`). Other providers (OpenAI-compatible servers, Ollama, script,
 * demo) have none that the AI SDK exposes.
 */
export function nativeToolsFor(ref: ModelRef, config: Config): NativeTool[] {
  switch (config.providers[ref.provider]?.type) {
    case 'anthropic':
      return [{ name: WEB_SEARCH, description: WEB_SEARCH_DESCRIPTION, spec: { type: 'provider', id: 'anthropic.web_search_20250305', name: WEB_SEARCH, args: { maxUses: 5 } } }]
    case 'openai':
      return [{ name: WEB_SEARCH, description: WEB_SEARCH_DESCRIPTION, spec: { type: 'provider', id: 'openai.web_search', name: WEB_SEARCH, args: {} } }]
    default:
      return []
  }
}
