import type { MessageWithParts, PartRecord, SessionRecord, TaskCard } from './index'

/** What a tool card's output keeps in an export: enough to see what happened, not a whole log. */
const OUTPUT_CHARS = 2000

/**
 * A conversation as Markdown (Export in the app, `agentry show --markdown`): a heading per message with who wrote it
 * and when, the text as written, each tool call as a line with its state and the start of its result in a fenced
 * block, each subagent as a quoted line with its status and its answer. Hidden (undone, edited) messages are left
 * out, as the transcript leaves them out; thinking is left out.
 */
export function conversationMarkdown(session: Pick<SessionRecord, 'title' | 'agent' | 'workspaceRoot' | 'model' | 'createdAt'>, messages: MessageWithParts[], now = new Date()): string {
  const out: string[] = [`# ${session.title || 'Untitled conversation'}`, '', `_Agentry conversation · ${session.workspaceRoot}${session.model ? ` · ${session.model.provider}/${session.model.model}` : ''} · exported ${stamp(now.getTime())}_`, '']
  for (const m of messages) {
    if (m.metadata.hiddenAt) continue
    const who = m.role === 'user' ? (m.metadata.steered === 'agent' ? 'Its caller' : 'You') : m.metadata.synthetic ? 'Background result' : m.metadata.notice ? 'Notice' : String(m.metadata.agent ?? session.agent)
    const body = m.parts.map(partMarkdown).filter(Boolean).join('\n\n')
    if (!body) continue
    out.push(`## ${who} · ${stamp(m.createdAt)}`, '', body, '')
  }
  return `${out.join('\n').trimEnd()}\n`
}

function partMarkdown(p: PartRecord): string {
  if (p.type === 'text') return String(p.data.text ?? '').trim()
  if (p.type === 'data-compaction') return '_Earlier messages were compacted into a summary here._'
  // A prompt's file (attachments.ts FilePartData; read without the schema: the CLI's export loads no zod).
  if (p.type === 'file') {
    const f = p.data as { name?: unknown; path?: unknown; omitted?: unknown }
    return `_${f.path ? `@${String(f.path)}` : String(f.name ?? 'a file')} ${f.omitted ? `(not attached: ${String(f.omitted)})` : 'attached'}_`
  }
  if (!p.type.startsWith('tool-')) return ''
  const state = p.toolState === 'output-available' ? 'done' : p.toolState === 'output-error' ? 'failed' : 'not finished'
  const card = p.data.subagent as TaskCard | undefined
  if (card) {
    const answer = typeof p.data.output === 'string' ? clip(p.data.output) : ''
    return [`> **Subagent ${card.agentType}** — ${card.description} (${card.status})`, ...(answer ? ['>', ...answer.split('\n').map((l) => `> ${l}`)] : [])].join('\n')
  }
  const input = JSON.stringify(p.data.input ?? {})
  const result = String((p.toolState === 'output-available' ? p.data.output : p.data.error) ?? '')
  const line = `**${p.type.slice(5)}** \`${input.length > 200 ? `${input.slice(0, 197)}…` : input}\` — ${state}`
  return result ? `${line}\n\n${fence(clip(result))}` : line
}

function clip(text: string): string {
  return text.length > OUTPUT_CHARS ? `${text.slice(0, OUTPUT_CHARS)}\n… (${(text.length - OUTPUT_CHARS).toLocaleString('en-US')} more characters)` : text
}

/** A fence longer than any run of backticks inside, so the output cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const f = '`'.repeat(longest + 1)
  return `${f}text\n${text}\n${f}`
}

function stamp(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`
}
