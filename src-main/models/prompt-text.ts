import type { LanguageModelV4CallOptions, LanguageModelV4Message, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider'

/** Reading helpers for the offline models, which decide what to say from the conversation. */

type Prompt = LanguageModelV4CallOptions['prompt']

export function messageText(message: LanguageModelV4Message): string {
  if (message.role === 'system') return message.content
  const texts: string[] = []
  for (const part of message.content) {
    if (part.type === 'text') texts.push(part.text)
    else if (part.type === 'tool-result') texts.push(toolOutputText(part.output))
  }
  return texts.join('\n')
}

export function lastUserText(prompt: Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]
    if (message.role === 'user') return messageText(message)
  }
  return ''
}

export function firstUserText(prompt: Prompt): string {
  const message = prompt.find((m) => m.role === 'user')
  return message ? messageText(message) : ''
}

export interface ToolResultView {
  toolCallId: string
  toolName: string
  /** The input of the matching tool call, found in an earlier assistant message. */
  input: unknown
  text: string
  /** Denied by the user or a rule, or failed. */
  failed: boolean
}

/** Tool results in the last message, if the last message carries any (i.e. a step after tool calls). */
export function lastToolResults(prompt: Prompt): ToolResultView[] {
  const last = prompt[prompt.length - 1]
  if (!last || (last.role !== 'tool' && last.role !== 'assistant')) return []
  const results: ToolResultView[] = []
  for (const part of last.content) {
    if (part.type !== 'tool-result') continue
    const failed = part.output.type === 'execution-denied' || part.output.type.startsWith('error')
    const input = toolCallInput(prompt, part.toolCallId)
    results.push({ toolCallId: part.toolCallId, toolName: part.toolName, input, text: toolOutputText(part.output), failed })
  }
  return results
}

function toolCallInput(prompt: Prompt, toolCallId: string): unknown {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]
    if (message.role !== 'assistant') continue
    const call = message.content.find((p) => p.type === 'tool-call' && p.toolCallId === toolCallId)
    if (call && call.type === 'tool-call') return call.input
  }
  return undefined
}

/** Index of the current step within this turn: 1 + assistant messages since the last user message. */
export function stepInTurn(prompt: Prompt): number {
  let step = 1
  for (let i = prompt.length - 1; i >= 0 && prompt[i].role !== 'user'; i--) {
    if (prompt[i].role === 'assistant') step++
  }
  return step
}

export function toolOutputText(output: LanguageModelV4ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value
    case 'json':
    case 'error-json':
      return typeof output.value === 'string' ? output.value : JSON.stringify(output.value)
    case 'execution-denied':
      return `denied${output.reason ? `: ${output.reason}` : ''}`
    case 'content':
      return output.value.map((v) => (v.type === 'text' ? v.text : `[${v.type}]`)).join('\n')
  }
}

export function offeredToolNames(options: LanguageModelV4CallOptions): Set<string> {
  return new Set((options.tools ?? []).map((t) => t.name))
}

/** Rough token count (≈4 characters per token), good enough for realistic offline usage numbers. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4))
}

export function promptTokens(options: LanguageModelV4CallOptions): number {
  const text = options.prompt.map(messageText).join('\n')
  const tools = JSON.stringify(options.tools ?? [])
  return estimateTokens(text) + (options.tools?.length ? estimateTokens(tools) : 0)
}
