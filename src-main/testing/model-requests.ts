import { startScriptedChatServer, type ScriptedChatResponse, type ScriptedChatServer } from '../models/testing'
import { createHarness, type Harness, type HarnessOptions } from './harness'

/**
 * What a real model receives: requests captured at a loopback OpenAI-compatible server, as the real provider sends
 * them, and small readers for them. The contract suite and the tests of what models read start from here.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string | { type: string; text?: string }[] | null
  tool_calls?: { id: string; function: { name: string; arguments: string } }[]
  tool_call_id?: string
}

export interface ChatTool {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
}

export interface ChatRequest {
  model: string
  messages: ChatMessage[]
  tools?: ChatTool[]
}

export const contentText = (m: ChatMessage): string =>
  typeof m.content === 'string' ? m.content : (m.content ?? []).map((c) => c.text ?? '').join('\n')

/** The system prompt (every system message, joined). */
export const systemOf = (r: ChatRequest): string => r.messages.filter((m) => m.role === 'system').map(contentText).join('\n')

/** `s u a t u a …`: the roles of a request, in order, one letter each. */
export const rolesOf = (r: ChatRequest): string => r.messages.map((m) => m.role[0]).join(' ')

export const toolNamesOf = (r: ChatRequest): string[] => (r.tools ?? []).map((t) => t.function.name)

export const toolOf = (r: ChatRequest, name: string): ChatTool | undefined => r.tools?.find((t) => t.function.name === name)

/** The first user message: a child's prompt, a helper's input. */
export const firstUserText = (r: ChatRequest): string => {
  const m = r.messages.find((x) => x.role === 'user')
  return m ? contentText(m) : ''
}

export const lastMessage = (r: ChatRequest): ChatMessage => r.messages[r.messages.length - 1]

/** The request carries a tool result (a step after tool calls) or a later message after one. */
export const hasToolResult = (r: ChatRequest): boolean => r.messages.some((m) => m.role === 'tool')

/** Which built-in agent (or helper) sent a request, told by the first line of its system prompt. */
export function agentOfRequest(r: ChatRequest): string {
  const head = systemOf(r).split('\n')[0]
  for (const [name, marker] of AGENT_MARKERS) if (head.includes(marker)) return name
  return 'other'
}

/** Phrases the first line of each built-in prompt carries (tests tell requests apart by them). */
export const AGENT_MARKERS: [string, string][] = [
  ['build', "Agentry's build agent"],
  ['plan', 'plan mode'],
  ['general', 'general-purpose agent'],
  ['explore', 'exploration agent'],
  ['title', 'Write a title'],
  ['summary', 'Summarize the session'],
  ['compaction', 'Summarize the conversation so far'],
]

export interface LoopbackHarness {
  h: Harness
  server: ScriptedChatServer
  requests: () => ChatRequest[]
  close(): Promise<void>
}

/**
 * A real host whose model is the real openai-compatible provider talking to a loopback server that answers with
 * `respond` (titles answered by default, so a test scripts only the agents it is about).
 */
export async function loopbackHarness(respond: (r: ChatRequest, index: number) => ScriptedChatResponse | Promise<ScriptedChatResponse>, o: HarnessOptions = {}): Promise<LoopbackHarness> {
  const server = await startScriptedChatServer({
    respond: (body, index) => {
      const r = body as ChatRequest
      return agentOfRequest(r) === 'title' ? { text: 'A title' } : respond(r, index)
    },
  })
  const config = (o.config ?? {}) as { providers?: Record<string, Record<string, unknown>> }
  const h = await createHarness({
    ...o,
    config: { model: 'mock/m', ...o.config, providers: { ...config.providers, mock: { ...config.providers?.mock, type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } } },
  })
  return {
    h,
    server,
    requests: () => server.requests as ChatRequest[],
    async close() {
      await h.close()
      await server.close()
    },
  }
}
