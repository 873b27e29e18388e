#!/usr/bin/env node
// A standalone loopback OpenAI-compatible chat-completions server (SSE streaming, tool calls) that scripts the
// "fan-out 4" workflow for any host and records every request body byte for byte. No dependencies beyond Node.
//
//   node scripted-fanout-server.mjs [--port N] [--workspace DIR] [--dump DIR]
//
// prints `listening http://127.0.0.1:PORT/v1` and, on SIGINT/SIGTERM, the analysis (see analyze()) as JSON.
// As a module: `startFanoutServer({ port, workspace, dumpDir })` → { url, port, records, analyze(), close() }.
//
// The script, decided from each request alone:
//   no tools offered                                  → "title" (system prompt mentions a title) or "other": short text
//   first user message contains "Read src/X/index.ts" → child X: 1st request a read-tool call, then a text answer
//   offers a tool named `task`                        → root: 1st request four parallel `task` calls, then final text
//   anything else                                     → "other": short text
import http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'

export const PARTS = ['a', 'b', 'c', 'd']
export const PROMPT = 'Survey the four parts of this repository (src/a, src/b, src/c, src/d) with one explore subagent each, then summarize.'

const utf8 = (s) => Buffer.byteLength(s, 'utf8')

/** The text of a message's content (a string, or an array of parts). */
function contentText(content) {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((p) => (typeof p === 'string' ? p : (p?.text ?? ''))).join('')
  return ''
}

function toolName(tool) {
  return tool?.function?.name ?? tool?.name
}

function toolParams(tool) {
  return tool?.function?.parameters ?? tool?.parameters ?? tool?.input_schema ?? {}
}

/** Which of the workflow's requests this is, and how far along (the number of tool results it carries). */
export function classify(body) {
  const messages = Array.isArray(body.messages) ? body.messages : []
  const tools = Array.isArray(body.tools) ? body.tools : []
  const toolResults = messages.filter((m) => m.role === 'tool').length
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => contentText(m.content)).join('\n')
  const firstUser = contentText(messages.find((m) => m.role === 'user')?.content)
  if (tools.length === 0) return { kind: /title/i.test(system) ? 'title' : 'other', toolResults }
  const child = /Read src\/([a-d])\/index\.ts/.exec(firstUser)
  if (child) return { kind: 'child', part: child[1], toolResults }
  if (tools.some((t) => toolName(t) === 'task')) return { kind: 'root', toolResults }
  return { kind: 'other', toolResults }
}

/** The host's read tool and the arguments that read `rel` (a workspace-relative path) with it. */
function readCall(tools, rel, workspace) {
  const names = tools.map(toolName)
  const name = ['read', 'read_file', 'Read', 'view', 'read_text_file'].find((n) => names.includes(n))
  if (!name) throw new Error(`no read tool among: ${names.join(', ')}`)
  const schema = toolParams(tools[names.indexOf(name)])
  const props = schema.properties ?? {}
  const key = ['filePath', 'file_path', 'path', 'filename'].find((k) => k in props) ?? 'path'
  const description = String(props[key]?.description ?? '')
  // A parameter described as "the absolute path to …" (opencode's read) gets the absolute path; otherwise the
  // workspace-relative one (Agentry's read_file: "relative to the workspace root").
  const value = /absolute path to|must be (an )?absolute/i.test(description) && workspace ? path.join(workspace, rel) : rel
  return { name, arguments: { [key]: value } }
}

/** The scripted answer to one request: { text } or { toolCalls }, and the label recorded for it. */
export function respond(body, workspace) {
  const c = classify(body)
  const tools = Array.isArray(body.tools) ? body.tools : []
  if (c.kind === 'title') return { label: 'title', text: 'Survey of four parts' }
  if (c.kind === 'other') return { label: 'other', text: 'Survey of four parts' }
  if (c.kind === 'child') {
    const rel = `src/${c.part}/index.ts`
    if (c.toolResults === 0) return { label: `child-${c.part}-1`, toolCalls: [readCall(tools, rel, workspace)] }
    return { label: `child-${c.part}-${c.toolResults + 1}`, text: `${rel} exports one function.` }
  }
  if (c.toolResults === 0) {
    return {
      label: 'root-1',
      toolCalls: PARTS.map((p) => ({
        name: 'task',
        arguments: { description: `Survey part ${p}`, prompt: `Read src/${p}/index.ts and say in one sentence what it exports.`, subagent_type: 'explore' },
      })),
    }
  }
  return { label: c.toolResults >= PARTS.length ? 'root-2' : `root-partial-${c.toolResults}`, text: 'All four parts surveyed.' }
}

/** OpenAI chat.completion.chunk payloads of one streamed answer (same shape as Agentry's scripted test server). */
function sseChunks(answer, model, includeUsage, seq) {
  const id = `chatcmpl-fanout${seq}`
  const created = Math.floor(Date.now() / 1000)
  const chunk = (delta, finish = null) => ({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] })
  const chunks = [chunk({ role: 'assistant', content: '' })]
  for (const word of (answer.text ?? '').split(/(?<= )/).filter(Boolean)) chunks.push(chunk({ content: word }))
  ;(answer.toolCalls ?? []).forEach((call, index) => {
    const args = JSON.stringify(call.arguments)
    const half = Math.ceil(args.length / 2)
    const callId = `call_${seq}_${index}`
    chunks.push(chunk({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: args.slice(0, half) } }] }))
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }))
  })
  chunks.push(chunk({}, answer.toolCalls?.length ? 'tool_calls' : 'stop'))
  if (includeUsage) chunks.push({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 } })
  return chunks
}

function completionBody(answer, model, seq) {
  const toolCalls = (answer.toolCalls ?? []).map((call, index) => ({ id: `call_${seq}_${index}`, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } }))
  return {
    id: `chatcmpl-fanout${seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: answer.text ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }, finish_reason: toolCalls.length ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
  }
}

/** Longest common byte prefix of two buffers. */
function commonPrefix(a, b) {
  const n = Math.min(a.length, b.length)
  let i = 0
  while (i < n && a[i] === b[i]) i++
  return i
}

/**
 * The request in the order a prompt cache sees it (tools, then the messages in order): both hosts put `tools`
 * after `messages` in the JSON body, so the raw byte prefix of a later turn stops where its new messages begin.
 */
function cacheOrder(body) {
  return Buffer.from(JSON.stringify({ tools: body.tools ?? [], messages: body.messages ?? [] }), 'utf8')
}

/** Per-request table and totals over the recorded bodies. */
export function analyzeRecords(records) {
  const bodies = records.map((r) => {
    try {
      return JSON.parse(r.raw.toString('utf8'))
    } catch {
      return {}
    }
  })
  const canon = bodies.map(cacheOrder)
  const rows = records.map((r, i) => {
    const body = bodies[i]
    const messages = Array.isArray(body.messages) ? body.messages : []
    const tools = Array.isArray(body.tools) ? body.tools : []
    const system = messages.filter((m) => m.role === 'system' || m.role === 'developer')
    let prefix = 0
    let prefixOf = null
    for (let j = 0; j < i; j++) {
      const p = commonPrefix(records[j].raw, r.raw)
      if (p > prefix) {
        prefix = p
        prefixOf = j
      }
    }
    let cachePrefix = 0
    for (let j = 0; j < i; j++) cachePrefix = Math.max(cachePrefix, commonPrefix(canon[j], canon[i]))
    return {
      seq: i,
      label: r.label,
      bytes: r.raw.length,
      headerBytes: r.headerBytes,
      messages: messages.length,
      roles: messages.map((m) => m.role).join(','),
      tools: tools.length,
      toolNames: tools.map(toolName).join(','),
      systemMessages: system.length,
      systemBytes: system.reduce((n, m) => n + utf8(contentText(m.content)), 0),
      toolsBytes: tools.length ? utf8(JSON.stringify(tools)) : 0,
      sharedPrefixBytes: prefix,
      sharedPrefixRatio: r.raw.length ? Number((prefix / r.raw.length).toFixed(4)) : 0,
      sharedPrefixWith: prefixOf,
      // the same measure over tools+messages in cache order (see cacheOrder)
      cacheOrderPrefixRatio: canon[i].length ? Number((cachePrefix / canon[i].length).toFixed(4)) : 0,
      stream: body.stream === true,
    }
  })
  const sum = (xs, f) => xs.reduce((n, x) => n + f(x), 0)
  const children = rows.filter((r) => r.label.startsWith('child-'))
  const firstChildren = rows.filter((r) => /^child-[a-d]-1$/.test(r.label))
  const byLabel = {}
  for (const r of rows) {
    const group = r.label.replace(/-[a-d]-/, '-*-')
    byLabel[group] ??= { requests: 0, bytes: 0 }
    byLabel[group].requests++
    byLabel[group].bytes += r.bytes
  }
  return {
    totals: {
      requests: rows.length,
      bytes: sum(rows, (r) => r.bytes),
      workflowBytes: sum(rows.filter((r) => r.label.startsWith('root') || r.label.startsWith('child')), (r) => r.bytes),
      helperBytes: sum(rows.filter((r) => r.label === 'title' || r.label === 'other'), (r) => r.bytes),
      headerBytes: sum(rows, (r) => r.headerBytes),
      childBytes: sum(children, (r) => r.bytes),
      // bytes of the children's requests not already sent as a prefix of an earlier request
      childNovelBytes: sum(children, (r) => r.bytes - r.sharedPrefixBytes),
      firstChildMeanPrefixRatio: firstChildren.length ? Number((sum(firstChildren, (r) => r.sharedPrefixRatio) / firstChildren.length).toFixed(4)) : null,
      firstChildMeanCacheOrderPrefixRatio: firstChildren.length ? Number((sum(firstChildren, (r) => r.cacheOrderPrefixRatio) / firstChildren.length).toFixed(4)) : null,
      byLabel,
    },
    requests: rows,
  }
}

export async function startFanoutServer({ port = 0, workspace, dumpDir, log = () => {} } = {}) {
  const records = []
  if (dumpDir) fs.mkdirSync(dumpDir, { recursive: true })
  const handle = async (req, res) => {
    const url = (req.url ?? '').replace(/\?.*$/, '')
    if (req.method === 'GET' && url.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model', created: 0, owned_by: 'scripted' }] }))
    }
    if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
      log(`unrouted ${req.method} ${req.url}`)
      res.writeHead(404, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }))
    }
    const pieces = []
    for await (const piece of req) pieces.push(piece)
    const raw = Buffer.concat(pieces)
    // request line + header lines as the client sent them (CRLF-separated), for a header-size figure
    const headerBytes = utf8(`${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`) + req.rawHeaders.reduce((n, v) => n + utf8(v) + 2, 0) + 2
    const seq = records.length
    let body
    try {
      body = JSON.parse(raw.toString('utf8'))
    } catch {
      records.push({ raw, headerBytes, label: 'invalid-json' })
      res.writeHead(400, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: { message: 'request body is not JSON' } }))
    }
    let answer
    try {
      answer = respond(body, workspace)
    } catch (e) {
      records.push({ raw, headerBytes, label: 'error' })
      log(`#${seq} error: ${e.message}`)
      res.writeHead(500, { 'content-type': 'application/json' })
      return res.end(JSON.stringify({ error: { message: String(e.message) } }))
    }
    records.push({ raw, headerBytes, label: answer.label })
    if (dumpDir) fs.writeFileSync(path.join(dumpDir, `${String(seq).padStart(2, '0')}-${answer.label}.json`), raw)
    log(`#${seq} ${answer.label} ${raw.length}B`)
    const model = typeof body.model === 'string' ? body.model : 'm'
    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end(JSON.stringify(completionBody(answer, model, seq)))
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
    for (const chunk of sseChunks(answer, model, body.stream_options?.include_usage === true, seq)) res.write(`data: ${JSON.stringify(chunk)}\n\n`)
    res.end('data: [DONE]\n\n')
  }
  const server = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ error: { message: String(e) } }))
      } else res.destroy()
    })
  })
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  const actual = server.address().port
  return {
    url: `http://127.0.0.1:${actual}/v1`,
    port: actual,
    records,
    analyze: () => analyzeRecords(records),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name) => {
    const i = process.argv.indexOf(name)
    return i > 0 ? process.argv[i + 1] : undefined
  }
  const server = await startFanoutServer({
    port: Number(arg('--port') ?? 0),
    workspace: arg('--workspace'),
    dumpDir: arg('--dump'),
    log: (line) => process.stderr.write(`${line}\n`),
  })
  process.stdout.write(`listening ${server.url}\n`)
  const stop = async () => {
    process.stdout.write(`${JSON.stringify(server.analyze(), null, 2)}\n`)
    await server.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
