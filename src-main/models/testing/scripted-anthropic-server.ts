import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback Anthropic Messages API (`POST /v1/messages`, streamed) for tests of what only the Anthropic provider
 * does — native web search: a reply may run a server-side search (a `server_tool_use` block and its
 * `web_search_tool_result`) before its text, as Anthropic does.
 */
export interface AnthropicReply {
  text?: string
  /** a server-side web search the "provider" runs before answering */
  search?: { query: string; results: { url: string; title: string }[] }
  /** client tool calls (the model asks the host to run them) */
  toolCalls?: { name: string; input: Record<string, unknown> }[]
}

export interface ScriptedAnthropicServer {
  /** base URL ending in `/v1`, for an anthropic provider's baseURL */
  url: string
  /** parsed request bodies, in arrival order */
  requests: AnthropicRequest[]
  close(): Promise<void>
}

export interface AnthropicRequest {
  system?: { type: string; text: string }[] | string
  messages: { role: string; content: string | { type: string; [k: string]: unknown }[] }[]
  tools?: { name: string; type?: string; [k: string]: unknown }[]
}

export async function startScriptedAnthropicServer(respond: (request: AnthropicRequest, index: number) => AnthropicReply): Promise<ScriptedAnthropicServer> {
  const requests: AnthropicRequest[] = []
  const server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += String(chunk)))
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/messages')) {
        res.writeHead(404).end()
        return
      }
      const request = JSON.parse(body) as AnthropicRequest
      requests.push(request)
      const events = sseEvents(respond(request, requests.length - 1))
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const e of events) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

function sseEvents(reply: AnthropicReply): { type: string; [k: string]: unknown }[] {
  const events: { type: string; [k: string]: unknown }[] = [
    {
      type: 'message_start',
      message: { id: `msg_${Math.random().toString(36).slice(2)}`, type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 20, output_tokens: 1 } },
    },
  ]
  let index = 0
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[] = []) => {
    events.push({ type: 'content_block_start', index, content_block: start })
    for (const delta of deltas) events.push({ type: 'content_block_delta', index, delta })
    events.push({ type: 'content_block_stop', index })
    index++
  }
  if (reply.search) {
    const id = `srvtoolu_${Math.random().toString(36).slice(2)}`
    block({ type: 'server_tool_use', id, name: 'web_search', input: {} }, [{ type: 'input_json_delta', partial_json: JSON.stringify({ query: reply.search.query }) }])
    block({
      type: 'web_search_tool_result',
      tool_use_id: id,
      content: reply.search.results.map((r) => ({ type: 'web_search_result', url: r.url, title: r.title, encrypted_content: 'enc', page_age: null })),
    })
  }
  if (reply.text) block({ type: 'text', text: '' }, [{ type: 'text_delta', text: reply.text }])
  for (const call of reply.toolCalls ?? []) {
    block({ type: 'tool_use', id: `toolu_${Math.random().toString(36).slice(2)}`, name: call.name, input: {} }, [{ type: 'input_json_delta', partial_json: JSON.stringify(call.input) }])
  }
  events.push({ type: 'message_delta', delta: { stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } })
  events.push({ type: 'message_stop' })
  return events
}
