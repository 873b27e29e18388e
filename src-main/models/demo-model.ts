import type { LanguageModelV4 } from '@ai-sdk/provider'
import { throwIfAborted } from './abort'
import { demoReply } from './demo-replies'
import { collectGenerate, offlineStream } from './offline-stream'
import { estimateTokens, promptTokens } from './prompt-text'

export interface DemoModelOptions {
  agentName: string
  modelId?: string
  /** Pause between streamed words, so the UI shows text arriving like a real model (default 5 ms). */
  chunkDelayMs?: number
}

/** The offline model a fresh install answers with; every text starts with DEMO_LABEL. */
export function createDemoModel(opts: DemoModelOptions): LanguageModelV4 {
  const modelId = opts.modelId ?? 'demo'
  const model: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: 'demo',
    modelId,
    supportedUrls: {},
    async doStream(options) {
      throwIfAborted(options.abortSignal)
      const reply = demoReply(opts.agentName, options)
      const output = estimateTokens(reply.text + JSON.stringify(reply.toolCalls))
      return offlineStream(
        {
          text: reply.text,
          toolCalls: reply.toolCalls,
          usage: { input: promptTokens(options), output },
          chunkDelayMs: opts.chunkDelayMs ?? 5,
        },
        modelId,
        options.abortSignal,
      )
    },
    async doGenerate(options) {
      return collectGenerate(await model.doStream(options))
    },
  }
  return model
}
