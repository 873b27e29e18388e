import type { Config, ModelRef } from '../../src-shared'
import { ModelConfigError } from './errors'

export const DEMO_MODEL_REF: ModelRef = { provider: 'demo', model: 'demo' }

/** "provider/model" → ModelRef. The model part may itself contain slashes (e.g. "or/meta/llama-3"). */
export function parseModelRef(s: string): ModelRef {
  const value = s.trim()
  const slash = value.indexOf('/')
  const provider = value.slice(0, slash)
  const model = value.slice(slash + 1)
  if (slash <= 0 || model === '' || /\s/.test(value)) {
    throw new ModelConfigError(
      `invalid model "${s}": expected "provider/model", e.g. "anthropic/claude-sonnet-4-5" or "demo/demo".`,
    )
  }
  return { provider, model }
}

export function formatModelRef(ref: ModelRef): string {
  return `${ref.provider}/${ref.model}`
}

/** config.model, else the offline demo model so a fresh install still answers. */
export function defaultModelRef(config: Config): ModelRef {
  return config.model ? parseModelRef(config.model) : { ...DEMO_MODEL_REF }
}
