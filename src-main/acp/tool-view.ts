import path from 'node:path'
import { applyPatch, parsePatch, reversePatch } from 'diff'
import type { ToolCallContent, ToolCallLocation, ToolCallStatus, ToolKind } from '@agentclientprotocol/sdk/unstable'

/**
 * How one of Agentry's tool calls looks in an editor: kind (the icon), title, file locations ("follow along") and
 * content. One function per aspect, used both for live events and for replaying a stored transcript, so a session
 * loaded later shows exactly what was streamed.
 */

/** A tool call as far as it is known: from events while it runs, from its stored part afterwards. */
export interface ToolCallSource {
  toolName: string
  input: unknown
  state: 'running' | 'ok' | 'error'
  output?: string
  error?: string
  metadata?: Record<string, unknown>
  /** the session's workspace: relative paths in the input are shown absolute */
  workdir: string
}

const KINDS: Record<string, ToolKind> = {
  read_file: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  list_dir: 'search',
  glob: 'search',
  grep: 'search',
  bash: 'execute',
  web_fetch: 'fetch',
  task: 'think',
  plan_exit: 'switch_mode',
}

export function toolKind(toolName: string): ToolKind {
  return KINDS[toolName] ?? 'other'
}

export function field(input: unknown, key: string): string | undefined {
  if (!input || typeof input !== 'object') return undefined
  const v = (input as Record<string, unknown>)[key]
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined
}

function clip(s: string, max: number): string {
  const line = s.split('\n')[0]
  return line.length > max || line !== s ? `${line.slice(0, max)}…` : line
}

/** Inline code that survives any backticks inside. */
function code(s: string): string {
  const longest = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return fence.length > 1 || s.startsWith('`') || s.endsWith('`') ? `${fence} ${s} ${fence}` : `${fence}${s}${fence}`
}

/** A fenced block that survives any fences inside. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${lang}\n${text.replace(/\n$/, '')}\n${fence}`
}

export function toolTitle(toolName: string, input: unknown): string {
  const p = field(input, 'path')
  switch (toolName) {
    case 'read_file': {
      const offset = field(input, 'offset')
      return `Read ${p ?? 'a file'}${offset ? ` (from line ${offset})` : ''}`
    }
    case 'write_file':
      return `Write ${p ?? 'a file'}`
    case 'edit_file':
      return `Edit ${p ?? 'a file'}`
    case 'list_dir':
      return `List ${p ?? '.'}`
    case 'glob':
      return `Find ${code(field(input, 'pattern') ?? '*')}${p ? ` in ${p}` : ''}`
    case 'grep':
      return `Search ${code(field(input, 'pattern') ?? '')}${p ? ` in ${p}` : ''}`
    case 'bash':
      return `Run ${code(clip(field(input, 'command') ?? '', 120))}`
    case 'web_fetch':
      return `Fetch ${field(input, 'url') ?? 'a page'}`
    case 'task': {
      const background = field(input, 'background') === 'true' ? ' (background)' : ''
      // The task first: a client that shortens a title keeps what the subagent does, not only which agent it is.
      return `${field(input, 'description') ?? 'task'} · ${field(input, 'subagent_type') ?? 'subagent'}${background}`
    }
    case 'question':
      return `Question: ${clip(field(input, 'question') ?? '', 200)}`
    case 'plan_exit':
      return 'Plan ready: switch to build'
    case 'todo':
      return 'Update the task list'
    default:
      return toolName
  }
}

const FILE_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'list_dir', 'glob', 'grep'])

/** The files a call touches, absolute (what an editor opens to follow along). */
export function toolLocations(toolName: string, input: unknown, workdir: string): ToolCallLocation[] {
  if (!FILE_TOOLS.has(toolName)) return []
  const p = field(input, 'path')
  if (!p || p.includes('://')) return toolName === 'list_dir' || toolName === 'glob' || toolName === 'grep' ? [{ path: workdir }] : []
  const offset = Number(field(input, 'offset'))
  return [{ path: path.resolve(workdir, p), ...(toolName === 'read_file' && offset > 0 ? { line: offset } : {}) }]
}

export function text(t: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: t } }
}

/**
 * The text a file had before a write, from the write's unified diff (the tool's, from the same jsdiff) and the new
 * content: the diff reversed onto the new text. Undefined when it does not apply (a diff cut or not the tool's).
 */
export function oldTextOf(diff: string, newText: string): string | undefined {
  try {
    const [patch] = parsePatch(diff)
    if (!patch?.hunks.length) return undefined
    const old = applyPatch(newText, reversePatch(patch), { fuzzFactor: 0 })
    return old === false ? undefined : old
  } catch {
    return undefined
  }
}

/**
 * A change to a file as ACP's structured diff (what editors review and apply): edit_file's replaced text and its
 * replacement; write_file's whole old and new text, with no `oldText` at all for a new file (some clients cannot
 * format a null). `diff` is the tool's unified diff; `created` says whether the file was new when the tool knows it
 * (after the call), else a write whose old text is empty is taken as new. Undefined when there is no change to show.
 */
export function fileDiff(toolName: string, input: unknown, workdir: string, diff: string | undefined, created?: boolean): ToolCallContent | undefined {
  const p = field(input, 'path')
  if (!p || p.includes('://')) return undefined
  const abs = path.resolve(workdir, p)
  if (toolName === 'edit_file') return { type: 'diff', path: abs, oldText: field(input, 'old_string') ?? '', newText: field(input, 'new_string') ?? '' }
  if (toolName !== 'write_file') return undefined
  const newText = field(input, 'content') ?? ''
  if (created === true) return { type: 'diff', path: abs, newText }
  if (!diff) return undefined // nothing changed (or nothing known of the old file)
  const oldText = oldTextOf(diff, newText)
  if (oldText === undefined) return undefined
  return created === undefined && oldText === '' ? { type: 'diff', path: abs, newText } : { type: 'diff', path: abs, oldText, newText }
}

/** What the call produced, once it ended: a diff for every file change, the output (fenced when it is plain text), or the error. */
export function toolContent(s: ToolCallSource): ToolCallContent[] {
  if (s.state === 'running') return []
  if (s.state === 'error') return [text(s.error ?? s.output ?? 'failed')]
  const out = s.output ?? ''
  switch (s.toolName) {
    case 'edit_file':
    case 'write_file': {
      const diff = typeof s.metadata?.diff === 'string' ? s.metadata.diff : undefined
      const created = typeof s.metadata?.created === 'boolean' ? s.metadata.created : undefined
      const block = fileDiff(s.toolName, s.input, s.workdir, diff, s.toolName === 'write_file' ? (created ?? false) : undefined)
      if (block) return [block]
      // No change, or an old text the diff cannot give back: the tool's words, and its diff as text.
      return diff ? [text(out), text(fenced(diff, 'diff'))] : out ? [text(out)] : []
    }
    case 'read_file':
    case 'bash':
    case 'grep':
    case 'glob':
    case 'list_dir':
      return out ? [text(fenced(out))] : []
    case 'todo':
      return []
  }
  return out ? [text(out)] : []
}

export function toolStatus(state: ToolCallSource['state']): ToolCallStatus {
  return state === 'running' ? 'in_progress' : state === 'ok' ? 'completed' : 'failed'
}
