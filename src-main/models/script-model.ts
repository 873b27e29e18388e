import { APICallError, type LanguageModelV4, type LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { sleep, throwIfAborted } from './abort'
import { ModelConfigError } from './errors'
import { collectGenerate, offlineStream, type OfflineReply } from './offline-stream'
import { estimateTokens, lastUserText, promptTokens, stepInTurn } from './prompt-text'
import { loadScript, type ScriptFile, type ScriptReply } from './script-format'

/**
 * Which replies have been used, per script file, for the life of the process. Replies are
 * consumed when a call starts (not when it ends) so parallel calls still get distinct replies
 * in call order. Editing the file resets its state.
 */
interface FileState {
  script: ScriptFile
  used: Map<string, Set<number>>
  calls: Map<string, number>
}
const states = new Map<string, FileState>()

function stateFor(file: string, script: ScriptFile): FileState {
  const existing = states.get(file)
  if (existing && existing.script === script) return existing
  const fresh: FileState = { script, used: new Map(), calls: new Map() }
  states.set(file, fresh)
  return fresh
}

/** Forget consumed replies (all files, or one), e.g. between benchmark rounds. */
export function resetScriptState(file?: string): void {
  if (file === undefined) states.clear()
  else states.delete(file)
}

function pickReply(
  file: string,
  agentName: string,
  options: LanguageModelV4CallOptions,
): { reply: ScriptReply; script: ScriptFile } {
  const script = loadScript(file)
  const state = stateFor(file, script)
  const own = script.agents[agentName]
  const list = own ?? script.agents['*'] ?? []
  // Each agent without its own list gets its own pass through "*", so a fallback reply
  // serves every such agent rather than only the first one to ask.
  const key = own ? agentName : `*\u0000${agentName}`
  const call = (state.calls.get(key) ?? 0) + 1
  state.calls.set(key, call)
  const used = state.used.get(key) ?? new Set<number>()
  state.used.set(key, used)

  const userText = lastUserText(options.prompt)
  const step = stepInTurn(options.prompt)
  const index = list.findIndex(
    (reply, i) =>
      !used.has(i) &&
      (reply.match === undefined || userText.includes(reply.match)) &&
      (reply.step === undefined || reply.step === step),
  )
  if (index < 0) {
    throw new ModelConfigError(
      `script ${file}: no reply left for agent "${agentName}" (call #${call}). Add another entry under agents.${agentName}.`,
    )
  }
  const reply = list[index]
  if (!reply.repeat) used.add(index)
  return { reply, script }
}

function scriptedError(reply: ScriptReply, file: string): APICallError | undefined {
  if (!reply.error) return undefined
  const { status, message, retryAfter } = reply.error
  return new APICallError({
    message,
    url: `script://${file}`,
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: retryAfter === undefined ? undefined : { 'retry-after': String(retryAfter) },
    responseBody: JSON.stringify({ error: { message } }),
    isRetryable: status === 408 || status === 429 || status >= 500,
  })
}

export interface ScriptModelOptions {
  /** Absolute path of the YAML script. */
  file: string
  agentName: string
  modelId: string
  /** Provider name as configured (default "script"). */
  provider?: string
}

/** Replays a YAML script deterministically. The file is validated here, so a bad script fails at resolve time. */
export function createScriptModel(opts: ScriptModelOptions): LanguageModelV4 {
  loadScript(opts.file)
  const model: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: opts.provider ?? 'script',
    modelId: opts.modelId,
    supportedUrls: {},
    async doStream(options) {
      throwIfAborted(options.abortSignal)
      const { reply, script } = pickReply(opts.file, opts.agentName, options)
      await sleep(reply.delayMs ?? 0, options.abortSignal)
      const error = scriptedError(reply, opts.file)
      if (error) throw error
      const output = estimateTokens(`${reply.reasoning ?? ''}${reply.text ?? ''}${JSON.stringify(reply.tools ?? [])}`)
      const offline: OfflineReply = {
        reasoning: reply.reasoning,
        text: reply.text,
        toolCalls: reply.tools,
        finish: reply.finish,
        usage: reply.usage ?? script.usage ?? { input: promptTokens(options), output },
        chunkDelayMs: reply.chunkDelayMs,
      }
      return offlineStream(offline, opts.modelId, options.abortSignal)
    },
    async doGenerate(options) {
      return collectGenerate(await model.doStream(options))
    },
  }
  return model
}
