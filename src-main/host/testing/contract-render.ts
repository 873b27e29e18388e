import fs from 'node:fs'
import { contentText, type ChatMessage, type ChatRequest, agentOfRequest, systemOf } from '../../testing/model-requests'

/**
 * What the contract suite keeps in snapshots: every request of a situation as a reader reviews it — who sent it, the
 * messages in order, the tools by name — with the system prompts and the tool definitions in files of their own (one
 * per distinct text), so a change to what models read shows up as a diff of plain text.
 */

/** Makes a situation's texts stable: temp paths, ids, dates and timings become placeholders. */
export function normalizer(o: { workdir: string; dataDir: string }): (text: string) => string {
  const ids = new Map<string, string>()
  const paths: [string, string][] = [
    [fs.realpathSync(o.dataDir), '<data>'],
    [o.dataDir, '<data>'],
    [fs.realpathSync(o.workdir), '<workdir>'],
    [o.workdir, '<workdir>'],
  ]
  const today = new Date().toISOString().slice(0, 10)
  return (text) => {
    let out = text
    for (const [from, to] of paths) out = out.split(from).join(to)
    return out
      .replace(/\/[^\s"]*\/agentry-scratch-\d+-[0-9a-f]{12}/g, '<tmp>/agentry-scratch-<uid>-<id>')
      .replace(/ses_[0-9a-f]{12}[0-9A-Za-z]{14}/g, (id) => {
        if (!ids.has(id)) ids.set(id, `ses_${ids.size + 1}`)
        return ids.get(id)!
      })
      .replace(/call_\d+_chatcmpl-[0-9a-z]+/g, 'call_<id>')
      .replace(new RegExp(today, 'g'), '<date>')
      .replace(/runtime (\d+m)?\d+(\.\d+)?s/g, 'runtime <t>')
      .replace(/\b[0-9a-f]{12}(?=\.\.\.|\.\n| \()/g, '<commit>')
      .replace(/started from [0-9a-f]{12}/g, 'started from <commit>')
  }
}

/** One named text per distinct content: `build`, then `build-2`, … in the order first seen. */
export class TextFiles {
  readonly files = new Map<string, string>()
  private readonly byText = new Map<string, string>()

  name(base: string, text: string): string {
    const known = this.byText.get(text)
    if (known) return known
    let name = base
    for (let n = 2; this.files.has(name); n++) name = `${base}-${n}`
    this.files.set(name, text)
    this.byText.set(text, name)
    return name
  }
}

function messageLines(m: ChatMessage, norm: (s: string) => string): string[] {
  if (m.role === 'system') return []
  const lines: string[] = []
  const text = contentText(m)
  if (m.role === 'tool') return [`[tool result ${m.tool_call_id ? norm(m.tool_call_id) : ''}]`.replace(' ]', ']'), indent(norm(text))]
  if (text) lines.push(`[${m.role}]`, indent(norm(text)))
  for (const c of m.tool_calls ?? []) lines.push(`[${m.role} calls ${c.function.name}] ${norm(c.id)} ${norm(c.function.arguments)}`)
  return lines
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => `    ${l}`.trimEnd())
    .join('\n')

/** A situation's requests as text; system prompts and tool lists go to `systems` and `tools` by name. */
export function renderSituation(name: string, requests: ChatRequest[], norm: (s: string) => string, systems: TextFiles, tools: TextFiles): string {
  const out = [`# ${name}: ${requests.length} request${requests.length === 1 ? '' : 's'}`, '']
  requests.forEach((r, i) => {
    const agent = senderOf(r)
    const system = systems.name(agentOfRequest(r), norm(systemOf(r)))
    const toolSet = r.tools?.length ? tools.name(agentOfRequest(r), norm(JSON.stringify(r.tools, null, 2))) : null
    out.push(`## ${i + 1}. ${agent} · model ${r.model} · system: system/${system}.txt · tools: ${toolSet ? `tools/${toolSet}.json (${r.tools!.map((t) => t.function.name).join(', ')})` : 'none'}`)
    for (const m of r.messages) out.push(...messageLines(m, norm))
    out.push('')
  })
  return out.join('\n')
}

/** Who sent a request, for the snapshot: a fork sends its parent's exact system prompt, so it is told by its directive. */
export function senderOf(r: ChatRequest): string {
  return r.messages.some((m) => m.role === 'user' && contentText(m).includes('<fork_directive>')) ? 'fork' : agentOfRequest(r)
}

const RANK = ['plan', 'build', 'fork', 'general', 'explore', 'compaction', 'summary', 'title', 'other']

/**
 * A stable order for a situation's requests: by thread (who sent it and its first user message), threads by sender
 * (primary agents first, in the order a plan is handed to build) then by first message, each thread's requests in
 * arrival order. Parallel siblings and helpers may reach the server in any order; the snapshot does not.
 */
export function stableOrder(requests: ChatRequest[]): ChatRequest[] {
  const threads = new Map<string, ChatRequest[]>()
  for (const r of requests) {
    const first = r.messages.find((m) => m.role === 'user')
    const key = `${String(RANK.indexOf(senderOf(r))).padStart(2, '0')}\u0000${first ? contentText(first) : ''}`
    if (!threads.has(key)) threads.set(key, [])
    threads.get(key)!.push(r)
  }
  return [...threads.keys()].sort().flatMap((k) => threads.get(k)!)
}
