import type { JSONValue, LanguageModelV4Message, LanguageModelV4Prompt, LanguageModelV4ToolResultOutput } from '@ai-sdk/provider'
import { BackgroundNotice, ToolAttachment, type MessageWithParts, type PartRecord } from '../../src-shared'
import { fileContent } from './prompt-files'

export const TOOL_PART_PREFIX = 'tool-'

export function isToolPart(part: PartRecord): boolean {
  return part.type.startsWith(TOOL_PART_PREFIX)
}

export function toolNameOf(part: PartRecord): string {
  return part.type.slice(TOOL_PART_PREFIX.length)
}

/** The text the model sees as a tool's result (output or error), also for calls cut off by abort or restart. */
export function toolResultText(part: PartRecord): { text: string; isError: boolean } {
  const data = part.data as { output?: unknown; error?: unknown }
  if (part.toolState === 'output-available') return { text: String(data.output ?? ''), isError: false }
  if (part.toolState === 'output-error') return { text: String(data.error ?? 'tool failed'), isError: true }
  return { text: 'tool call did not complete', isError: true }
}

/**
 * Turns stored history into the model's prompt. What the user sees is never deleted; what the model sees is:
 * the latest compaction summary (if any) plus everything after it, minus hidden messages. Synthetic messages
 * (background task completions) are shown to the model as user-side notices so that a turn can react to them, each
 * headed by a line that says it is automated, which task it is and how it ended.
 */
export function buildPrompt(system: string, history: MessageWithParts[], o: PromptOptions = {}): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = [{ role: 'system', content: system }]
  // The newest compaction marker covers every message up to `upToMessageId` (ids sort by creation time).
  let coveredUpTo = ''
  for (let i = history.length - 1; i >= 0; i--) {
    const compaction = history[i].metadata.compaction as { summary?: string; upToMessageId?: string } | undefined
    if (compaction?.summary) {
      prompt.push({ role: 'user', content: [{ type: 'text', text: `Summary of the conversation so far:\n${compaction.summary}` }] })
      coveredUpTo = compaction.upToMessageId ?? history[i].id
      break
    }
  }
  for (const message of history) {
    if (message.id <= coveredUpTo || message.metadata.hiddenAt || message.metadata.compaction || message.metadata.notice) continue
    prompt.push(...toModelMessages(message, o))
  }
  return prompt
}

const ENDED: Record<BackgroundNotice['outcome'], string> = {
  completed: 'finished. Its result (the user has not seen it):',
  incomplete: 'stopped before it finished. What it returned (the user has not seen it):',
  failed: 'failed:',
  stopped: 'was stopped:',
}

/** The first line of a background result notice: automated, which task, how it ended. */
export function backgroundNoticeLine(task: unknown): string {
  const parsed = BackgroundNotice.safeParse(task)
  if (!parsed.success) return '[Automated notice, not from the user] A background task ended:'
  const t = parsed.data
  return `[Automated notice, not from the user] The background task "${t.description}" (${t.agentType}, task_id ${t.taskId}) ${ENDED[t.outcome]}`
}

/**
 * The line before a message that reached a run while it worked (the person steering it, or its caller through
 * sessions_send): said so the model reads it as a correction to weigh now, not as a new task after the old one.
 */
export function steeredLine(from: unknown): string {
  return from === 'agent'
    ? '[Sent by the agent that started you, while you were working. Take it into account before you go on.]'
    : '[Sent by the person while you were working. Take it into account before you go on.]'
}

export interface PromptOptions {
  /** the model takes images in user messages (see models' acceptsImages); else each image is named in a line of text */
  images?: boolean
  /** the model takes images in tool results (see models' acceptsToolResultImages); else only their textual mention */
  toolResultImages?: boolean
}

function toModelMessages(message: MessageWithParts, o: PromptOptions): LanguageModelV4Message[] {
  const texts = message.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text ?? ''))
  if (message.role === 'user' || message.metadata.synthetic) {
    const text = texts.join('\n')
    const files = message.role === 'user' ? fileContent(message, o.images ?? false) : []
    if (!text && files.length === 0) return []
    const body = message.metadata.synthetic
      ? `${backgroundNoticeLine(message.metadata.task)}\n${text}`
      : message.metadata.steered
        ? `${steeredLine(message.metadata.steered)}\n${text}`
        : text
    return [{ role: 'user', content: body ? [...files, { type: 'text', text: body }] : files }]
  }
  if (message.role === 'system') return texts.length ? [{ role: 'system', content: texts.join('\n') }] : []

  const assistant: Extract<LanguageModelV4Message, { role: 'assistant' }> = { role: 'assistant', content: [] }
  const results: Extract<LanguageModelV4Message, { role: 'tool' }> = { role: 'tool', content: [] }
  for (const part of message.parts) {
    if (part.type === 'text' && part.data.text) assistant.content.push({ type: 'text', text: String(part.data.text) })
    else if (part.type === 'reasoning' && part.data.text) assistant.content.push({ type: 'reasoning', text: String(part.data.text) })
    else if (isToolPart(part) && part.toolCallId && part.data.providerExecuted) {
      // A provider tool (native web search) ran at the provider: call and result go back in the assistant message,
      // as the provider expects them. One cut short (a restart) had no result to replay: it is left out whole.
      if (!('result' in part.data)) continue
      const toolName = toolNameOf(part)
      assistant.content.push({ type: 'tool-call', toolCallId: part.toolCallId, toolName, input: part.data.input ?? {}, providerExecuted: true })
      const value = (part.data.result ?? null) as JSONValue
      assistant.content.push({ type: 'tool-result', toolCallId: part.toolCallId, toolName, output: part.toolState === 'output-error' ? { type: 'error-json', value } : { type: 'json', value } })
    } else if (isToolPart(part) && part.toolCallId) {
      const toolName = toolNameOf(part)
      assistant.content.push({ type: 'tool-call', toolCallId: part.toolCallId, toolName, input: part.data.input ?? {} })
      results.content.push({ type: 'tool-result', toolCallId: part.toolCallId, toolName, output: toolOutput(part, o) })
    }
  }
  const out: LanguageModelV4Message[] = []
  if (assistant.content.length) out.push(assistant)
  if (results.content.length) out.push(results)
  return out
}

function toolOutput(part: PartRecord, o: PromptOptions): LanguageModelV4ToolResultOutput {
  const result = toolResultText(part)
  if (result.isError) return { type: 'error-text', value: result.text }
  const images = o.toolResultImages ? attachmentsOf(part) : []
  if (images.length === 0) return { type: 'text', value: result.text }
  return {
    type: 'content',
    value: [{ type: 'text', text: result.text }, ...images.map((a) => ({ type: 'file' as const, data: { type: 'data' as const, data: a.data }, mediaType: a.mediaType }))],
  }
}

/** Images a tool returned (`metadata.attachments`), as stored; anything malformed is left out. */
function attachmentsOf(part: PartRecord): ToolAttachment[] {
  const list = (part.data.metadata as { attachments?: unknown } | undefined)?.attachments
  if (!Array.isArray(list)) return []
  return list.flatMap((a) => {
    const parsed = ToolAttachment.safeParse(a)
    return parsed.success ? [parsed.data] : []
  })
}


const CACHE_BREAKPOINT = { anthropic: { cacheControl: { type: 'ephemeral' } } }

/**
 * Prompt-cache breakpoints (Anthropic's `cache_control`; other providers ignore the option): after the system
 * prompt — which the provider caches together with the tool list before it — and after the last message, so the
 * next step of the same run reads everything before it from the cache; for a fork, also where its parent's last
 * request ended (`inheritedLength` messages), so its first request marks the same spot its parent's did. The
 * messages themselves are never changed, only marked: siblings and forks keep sending identical bytes.
 */
export function markCacheBreakpoints(prompt: LanguageModelV4Prompt, inheritedLength?: number): void {
  const marks = new Set([0, prompt.length - 1])
  if (inheritedLength) marks.add(inheritedLength - 1)
  for (const i of marks) {
    const message = prompt[i]
    if (message) prompt[i] = { ...message, providerOptions: { ...message.providerOptions, ...CACHE_BREAKPOINT } } as typeof message
  }
}

/**
 * Does the conversation end with something the model has not answered yet (a user message, a result notice, tool
 * results)? A request that ends with the model's own message is never sent: providers take it as text to continue
 * (Anthropic's prefill), and an empty continuation reads as a failed answer.
 */
export function awaitsAnswer(prompt: LanguageModelV4Prompt): boolean {
  const last = prompt[prompt.length - 1]
  return last !== undefined && (last.role === 'user' || last.role === 'tool')
}

/** Rough token estimate (chars / 4) used to decide when to compact. */
export function estimateTokens(prompt: LanguageModelV4Prompt): number {
  let chars = 0
  for (const m of prompt) chars += JSON.stringify(m.content).length
  return Math.ceil(chars / 4)
}
