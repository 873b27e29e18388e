import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** One scripted answer of the loopback OpenAI-compatible server. */
export interface ScriptedChatResponse {
  text?: string
  reasoning?: string
  toolCalls?: Array<{ name: string; arguments: string | Record<string, unknown> }>
  /** Answer with this HTTP error status (and no stream) instead. */
  status?: 401 | 403 | 429 | 500 | 502 | 503
  /** With `status`: sent as the Retry-After header (seconds). */
  retryAfter?: number
  /** Pause between SSE chunks. */
  chunkDelayMs?: number
  /** Pause before answering at all (a slow first token). */
  delayMs?: number
  /** Destroy the socket after this many SSE chunks, to simulate a dropped connection. */
  dropAfterChunks?: number
  usage?: { prompt: number; completion: number }
  /** Send these SSE `data:` payloads verbatim instead of a well-formed answer (a broken server). */
  rawSse?: string[]
  /**
   * A model that never stops: after `text` (if any), keep sending `chunk` as text, one SSE chunk every `everyMs`
   * (default 1), until the client hangs up. No finish chunk is ever sent.
   */
  forever?: { chunk: string; everyMs?: number }
}

/** A fixed list (one per request, in order) or a function of the request body and its index. */
export type ChatServerScript =
  | ScriptedChatResponse[]
  | { respond(request: unknown, index: number): ScriptedChatResponse | Promise<ScriptedChatResponse> }

export interface ScriptedChatServerOptions {
  /** what `GET /v1/models` lists (OpenAI's shape); an HTTP status instead answers with that error */
  models?: string[] | { status: number }
  /** required `Authorization: Bearer …` for every route (401 otherwise) */
  key?: string
}

export interface ScriptedChatServer {
  /** Base URL ending in `/v1`, for an openai-compatible provider's baseURL. */
  url: string
  /** Parsed request bodies, in arrival order. */
  requests: unknown[]
  /** The same bodies as sent, byte for byte (prompt-cache prefix tests compare these). */
  bodies: string[]
  /** Request headers, in the same order (tests check which API key was sent). */
  headers: http.IncomingHttpHeaders[]
  /** `GET /models` requests seen (their headers) */
  modelRequests: http.IncomingHttpHeaders[]
  /**
   * Indexes (into `requests`) of streamed answers whose connection closed before the answer was complete: the
   * client hung up (an abort, a cut stream) or the script dropped it (`dropAfterChunks`).
   */
  interrupted: number[]
  close(): Promise<void>
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function errorBody(status: number): { message: string; type: string } {
  if (status === 401 || status === 403) return { message: 'Incorrect API key provided.', type: 'invalid_request_error' }
  if (status === 429) return { message: 'Rate limit reached, please retry.', type: 'rate_limit_error' }
  return { message: 'The server had an error while processing your request.', type: 'server_error' }
}

/** The SSE chunks of one streamed answer, in OpenAI chat.completion.chunk shape. */
function sseChunks(response: ScriptedChatResponse, model: string, includeUsage: boolean): unknown[] {
  const id = `chatcmpl-${Math.random().toString(36).slice(2, 10)}`
  const created = Math.floor(Date.now() / 1000)
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  })
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })]
  if (response.reasoning) chunks.push(chunk({ reasoning_content: response.reasoning }))
  for (const word of (response.text ?? '').split(/(?<= )/).filter(Boolean)) chunks.push(chunk({ content: word }))
  ;(response.toolCalls ?? []).forEach((call, index) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)
    const half = Math.ceil(args.length / 2)
    // Arguments arrive in two pieces, as real servers split them, so the client must reassemble.
    chunks.push(chunk({ tool_calls: [{ index, id: `call_${index}_${id}`, type: 'function', function: { name: call.name, arguments: args.slice(0, half) } }] }))
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }))
  })
  chunks.push(chunk({}, response.toolCalls?.length ? 'tool_calls' : 'stop'))
  if (includeUsage) {
    const prompt = response.usage?.prompt ?? 20
    const completion = response.usage?.completion ?? 10
    chunks.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })
  }
  return chunks
}

function completionBody(response: ScriptedChatResponse, model: string): unknown {
  const toolCalls = (response.toolCalls ?? []).map((call, index) => ({
    id: `call_${index}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }))
  const prompt = response.usage?.prompt ?? 20
  const completion = response.usage?.completion ?? 10
  return {
    id: 'chatcmpl-scripted',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: response.text ?? null, tool_calls: toolCalls.length ? toolCalls : undefined },
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  }
}

/**
 * A real HTTP server on 127.0.0.1 speaking OpenAI `/v1/chat/completions` (streaming and not),
 * answering each request with the next scripted response. For tests, the bench and e2e.
 */
export async function startScriptedChatServer(script: ChatServerScript, options: ScriptedChatServerOptions = {}): Promise<ScriptedChatServer> {
  const requests: unknown[] = []
  const bodies: string[] = []
  const headers: http.IncomingHttpHeaders[] = []
  const modelRequests: http.IncomingHttpHeaders[] = []
  const interrupted: number[] = []

  const next = async (body: unknown, index: number): Promise<ScriptedChatResponse | undefined> =>
    Array.isArray(script) ? script[index] : script.respond(body, index)

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (options.key !== undefined && req.headers.authorization !== `Bearer ${options.key}`) {
      res.writeHead(401, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: errorBody(401) }))
    }
    if (req.method === 'GET' && req.url?.replace(/\?.*$/, '').endsWith('/models')) {
      modelRequests.push(req.headers)
      const list = options.models ?? ['scripted-model']
      if (!Array.isArray(list)) {
        res.writeHead(list.status, { 'content-type': 'application/json' })
        return res.end(JSON.stringify({ error: errorBody(list.status) }))
      }
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ object: 'list', data: list.map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' })) }))
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: { message: `scripted server: no route ${req.method} ${req.url}` } }))
    }
    let raw = ''
    for await (const piece of req) raw += String(piece)
    let body: Record<string, unknown>
    try {
      body = JSON.parse(raw) as Record<string, unknown>
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: { message: 'scripted server: request body is not JSON' } }))
    }
    const index = requests.length
    requests.push(body)
    bodies.push(raw)
    headers.push(req.headers)
    const response = await next(body, index)
    if (!response) {
      res.writeHead(500, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: { message: `scripted server: no response left (request #${index + 1})` } }))
    }
    if (response.status) {
      const extra = response.retryAfter !== undefined ? { 'retry-after': String(response.retryAfter) } : {}
      res.writeHead(response.status, { 'content-type': 'application/json', ...extra })
      return res.end(JSON.stringify({ error: { ...errorBody(response.status), code: response.status } }))
    }
    const model = typeof body.model === 'string' ? body.model : 'scripted'
    if (response.delayMs) await delay(response.delayMs)
    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify(completionBody(response, model)))
    }
    if (response.rawSse) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
      for (const line of response.rawSse) res.write(`data: ${line}\n\n`)
      return res.end()
    }
    let hungUp = false
    res.on('close', () => {
      hungUp = true
      if (!res.writableEnded) interrupted.push(index)
    })
    const streamOptions = body.stream_options as { include_usage?: boolean } | undefined
    // A never-ending answer is the well-formed one without its finish (and usage) chunks, then more text forever.
    const chunks = sseChunks(response, model, streamOptions?.include_usage === true && !response.forever)
    if (response.forever) chunks.splice(chunks.length - 1, 1)
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
    if (response.forever) {
      const { chunk: text, everyMs = 1 } = response.forever
      const more = { ...(chunks[0] as object), choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }
      for (let i = 0; !hungUp; i++) {
        await new Promise<void>((resolve) => res.write(`data: ${JSON.stringify(chunks[i] ?? more)}\n\n`, () => resolve()))
        await delay(everyMs)
      }
      return
    }
    for (const [i, chunk] of chunks.entries()) {
      if (response.dropAfterChunks !== undefined && i >= response.dropAfterChunks) {
        res.socket?.destroy()
        return
      }
      // Wait for the flush so a later simulated drop happens after the client could see this chunk.
      await new Promise<void>((resolve) => res.write(`data: ${JSON.stringify(chunk)}\n\n`, () => resolve()))
      if (response.chunkDelayMs) await delay(response.chunkDelayMs)
    }
    res.end('data: [DONE]\n\n')
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      // A client that hung up mid-answer is normal in tests (abort); anything else is reported.
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: `scripted server: ${String(e)}` } }))
      } else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    bodies,
    headers,
    modelRequests,
    interrupted,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((e) => (e ? reject(e) : resolve()))
      }),
  }
}
