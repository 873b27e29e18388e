import type { PartRecord, TaskCard } from '../../src-shared'

/**
 * Part `data` is an open record on the wire; these readers are the one place that knows its keys
 * (`text` for text/reasoning; `input`, `output`, `durationMs`, `startedAt`, `metadata`, `subagent` for tools),
 * and they tolerate anything missing, because a part is rendered while it is still growing.
 */

export function partText(p: PartRecord): string {
  return typeof p.data.text === 'string' ? p.data.text : ''
}

/** A message's text parts as written (Markdown source), e.g. what "Copy message" copies or a rewind puts back. */
export function messageText(parts: PartRecord[]): string {
  return parts
    .filter((p) => p.type === 'text')
    .map(partText)
    .join('\n\n')
    .trim()
}

export function toolName(p: PartRecord): string | null {
  return p.type.startsWith('tool-') ? p.type.slice(5) : null
}

export function toolInput(p: PartRecord): Record<string, unknown> {
  const v = p.data.input
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
}

export function toolOutput(p: PartRecord): string | null {
  const v = p.data.output ?? p.data.error
  if (v === undefined || v === null) return null
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2)
}

export function toolMetadata(p: PartRecord): Record<string, unknown> {
  const v = p.data.metadata
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
}

export function numberField(p: PartRecord, k: string): number | null {
  const v = p.data[k]
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

const cache = new WeakMap<object, TaskCard | null>()
const TASK_STATUSES = new Set<string>(['queued', 'running', 'completed', 'failed', 'aborted'])

/** The subagent card of a `task` part, or null while the host has not reported one yet. */
export function readTaskCard(p: PartRecord): TaskCard | null {
  const raw = p.data.subagent
  if (!raw || typeof raw !== 'object') return null
  const hit = cache.get(raw)
  if (hit !== undefined) return hit
  // The host writes these cards; a light shape check (rather than the zod schema) keeps zod out of the UI bundle.
  const c = raw as Partial<TaskCard>
  const card =
    typeof c.taskId === 'string' && typeof c.agentType === 'string' && typeof c.status === 'string' && TASK_STATUSES.has(c.status)
      ? ({ steps: 0, tokensIn: 0, tokensOut: 0, costUsd: null, startedAt: null, endedAt: null, error: null, description: '', background: false, inspectable: false, depth: 1, ...c } as TaskCard)
      : null
  cache.set(raw, card)
  return card
}

/** The argument a person recognises a tool call by: the command, the path, the pattern, the URL. */
export function keyArgument(name: string, input: Record<string, unknown>): string {
  const pick = (...keys: string[]): string => {
    for (const k of keys) {
      const v = input[k]
      if (typeof v === 'string' && v.length > 0) return v
    }
    return ''
  }
  switch (name) {
    case 'bash':
      return pick('command')
    case 'read_file':
    case 'write_file':
    case 'edit_file':
    case 'list_dir':
      return pick('path')
    case 'glob':
    case 'grep':
      return [pick('pattern'), pick('path')].filter(Boolean).join(' in ')
    case 'web_fetch':
      return pick('url')
    case 'web_search':
      return pick('query')
    case 'task':
      return pick('description')
    default:
      return pick('path', 'command', 'description', 'query', 'url', 'plan', 'question')
  }
}

/** How a bash call was confined (`metadata.sandbox`, see SandboxState in src-shared), or null before it ran. */
export function sandboxOf(p: PartRecord): { mode: string; network: boolean; reason?: string } | null {
  const v = toolMetadata(p).sandbox
  if (!v || typeof v !== 'object') return null
  const s = v as Record<string, unknown>
  if (typeof s.mode !== 'string' || typeof s.network !== 'boolean') return null
  return { mode: s.mode, network: s.network, ...(typeof s.reason === 'string' ? { reason: s.reason } : {}) }
}
