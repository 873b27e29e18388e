import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { classifyError, statusOf } from './error-kind'

export interface LazyModelOptions {
  /** Our config provider name (e.g. "openai"), so errors name what the user configured. */
  provider: string
  modelId: string
  /** Builds the real model; runs once, on the first call, so start-up never loads SDK code. */
  load: () => Promise<LanguageModelV4>
  /** Turns a 401/403 from the provider into an error that says where the key came from. */
  onAuthError: (statusCode: number, cause: unknown) => Error
}

/** A LanguageModelV4 that defers the dynamic import of its provider SDK to the first call. */
export function createLazyModel(opts: LazyModelOptions): LanguageModelV4 {
  let loading: Promise<LanguageModelV4> | undefined
  const model = () => (loading ??= opts.load())

  const mapError = (e: unknown): unknown => {
    if (classifyError(e) !== 'auth') return e
    return opts.onAuthError(statusOf(e) ?? 401, e)
  }

  return {
    specificationVersion: 'v4',
    provider: opts.provider,
    modelId: opts.modelId,
    get supportedUrls() {
      return model().then((m) => m.supportedUrls)
    },
    async doGenerate(options: LanguageModelV4CallOptions) {
      const m = await model()
      try {
        return await m.doGenerate(options)
      } catch (e) {
        throw mapError(e)
      }
    },
    async doStream(options: LanguageModelV4CallOptions) {
      const m = await model()
      try {
        return await m.doStream(options)
      } catch (e) {
        throw mapError(e)
      }
    },
  }
}
