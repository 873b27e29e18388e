import path from 'node:path'
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
      return `${field(input, 'subagent_type') ?? 'subagent'}: ${field(input, 'description') ?? 'task'}${background}`
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

/** What the call produced, once it ended: a diff for edits, the output (fenced when it is plain text), or the error. */
export function toolContent(s: ToolCallSource): ToolCallContent[] {
  if (s.state === 'running') return []
  if (s.state === 'error') return [text(s.error ?? s.output ?? 'failed')]
  const out = s.output ?? ''
  const p = field(s.input, 'path')
  const abs = p ? path.resolve(s.workdir, p) : undefined
  switch (s.toolName) {
    case 'edit_file':
      if (abs) return [{ type: 'diff', path: abs, oldText: field(s.input, 'old_string') ?? '', newText: field(s.input, 'new_string') ?? '' }]
      break
    case 'write_file': {
      if (abs && s.metadata?.created === true) return [{ type: 'diff', path: abs, oldText: null, newText: field(s.input, 'content') ?? '' }]
      const diff = typeof s.metadata?.diff === 'string' ? s.metadata.diff : ''
      return diff ? [text(out), text(fenced(diff, 'diff'))] : [text(out)]
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
