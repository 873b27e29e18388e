import { z } from 'zod'
import type { CommandEntry, CommandProblem, CommandSource } from '../../src-shared'
import { readFrontmatter } from '../config'

/** A loaded command: what the listing shows plus the template its prompt is expanded from. */
export interface CommandDef extends CommandEntry {
  template: string
}

/** Bigger than any real command (the corpora's largest is ~60 KB): a file past it is refused, not read into prompts. */
export const MAX_COMMAND_FILE_CHARS = 256_000

// Each field read on its own: a wrong value is dropped with a warning, the file still loads (as Claude Code would).
const text = z.string()
const FIELDS: Record<string, z.ZodType> = {
  description: text,
  'argument-hint': z.union([text, z.array(z.union([text, z.number()]))]),
  agent: text.min(1),
  model: text.min(1),
  subtask: z.boolean(),
  'allowed-tools': z.union([text, z.array(text)]),
}

/**
 * One command file (Claude Code or opencode: the same fields). Frontmatter is optional — Claude Code loads a plain
 * Markdown file as a command — and read leniently (`readFrontmatter`). Fields other than those above (Claude Code's
 * `disable-model-invocation`, opencode's `template`) are ignored.
 */
export function parseCommandFile(o: { name: string; file: string; source: CommandSource; text: string }): { command: CommandDef } | { error: CommandProblem } {
  if (o.text.length > MAX_COMMAND_FILE_CHARS) return { error: { file: o.file, reason: `the file is larger than ${MAX_COMMAND_FILE_CHARS} characters; shorten it` } }
  const base = { name: o.name, source: o.source, file: o.file, allowedTools: [] as string[] }
  const src = o.text.replace(/^\uFEFF/, '')
  if (!/^---[ \t]*\r?\n/.test(src)) {
    return { command: { ...base, description: firstLine(src), warnings: [], template: src.replace(/\r\n/g, '\n').trim() } }
  }
  const fm = readFrontmatter(quoteArgumentHint(src))
  if (!fm.ok) return { error: { file: o.file, line: fm.line, field: 'frontmatter', reason: fm.reason } }
  const warnings: CommandProblem[] = fm.warnings.map((w) => ({ file: o.file, line: w.line, field: w.field, reason: w.reason }))
  const value = fm.value ?? {}
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { error: { file: o.file, line: 2, field: 'frontmatter', reason: 'the frontmatter is not a list of "key: value" fields' } }
  }
  const fields: Record<string, unknown> = {}
  for (const [key, schema] of Object.entries(FIELDS)) {
    const raw = (value as Record<string, unknown>)[key]
    if (raw === undefined || raw === null) continue
    const parsed = schema.safeParse(raw)
    if (parsed.success) fields[key] = parsed.data
    else warnings.push({ file: o.file, line: fm.keyLines[key], field: key, reason: `ignored: expected ${expected(key)}, got ${JSON.stringify(raw).slice(0, 60)}` })
  }
  const hint = fields['argument-hint']
  const tools = fields['allowed-tools']
  return {
    command: {
      ...base,
      description: (fields.description as string | undefined)?.trim() || firstLine(fm.body),
      ...(hint !== undefined ? { argumentHint: Array.isArray(hint) ? hint.map((h) => `[${String(h)}]`).join(' ') : String(hint) } : {}),
      ...(fields.agent ? { agent: fields.agent as string } : {}),
      ...(fields.model ? { model: fields.model as string } : {}),
      ...(fields.subtask !== undefined ? { subtask: fields.subtask as boolean } : {}),
      allowedTools: Array.isArray(tools) ? tools : typeof tools === 'string' ? splitTools(tools) : [],
      warnings,
      template: fm.body,
    },
  }
}

/**
 * `argument-hint: [pr-number] [priority]` — the form Claude Code's own documentation uses — is not YAML (a flow list
 * followed by more text). The hint is text to show as written, so its line is read as a quoted string (same line
 * count, so every line number still points into the file); `[a, b]` shows as written too, not as a list.
 */
function quoteArgumentHint(text: string): string {
  const close = text.search(/\n-{3,}[ \t]*\r?(\n|$)/)
  if (close < 0) return text
  const head = text.slice(0, close).replace(/^(argument-hint:[ \t]*)(\[[^\n]*?)[ \t]*(\r?)$/m, (_w, key: string, value: string, cr: string) => `${key}${JSON.stringify(value)}${cr}`)
  return head + text.slice(close)
}

function expected(key: string): string {
  if (key === 'subtask') return 'true or false'
  if (key === 'argument-hint' || key === 'allowed-tools') return 'text or a list'
  return 'text'
}

/** `Bash(git add:*), Bash(git status:*), Read` → each tool; commas inside parentheses stay. */
export function splitTools(list: string): string[] {
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of list) {
    if (ch === '(') depth++
    if (ch === ')') depth = Math.max(0, depth - 1)
    if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim())
      cur = ''
      continue
    }
    cur += ch
  }
  if (cur.trim()) out.push(cur.trim())
  return out
}

/** A command without a description is described by its first line of text (as Claude Code does). */
function firstLine(body: string): string {
  const line = body.split('\n').find((l) => l.trim() && !l.trim().startsWith('<!--')) ?? ''
  const clean = line.replace(/^#+\s*/, '').trim()
  return clean.length > 120 ? `${clean.slice(0, 117)}…` : clean
}
