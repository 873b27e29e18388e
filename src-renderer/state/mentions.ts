import type { AgentListEntry, PartRecord, RunNode } from '../../src-shared'
import { readTaskCard } from './part-data'
import type { Transcript } from './transcript-model'
import type { BackgroundTask } from './transcript-store'

/**
 * The composer's `@` menu (issue 28), as data: where the `@token` being typed is, what it offers — files of the
 * workspace (fuzzy-matched by the host), running children of this conversation, agent types — and what a pick does
 * to the text. No React, no bridge: the menu component and the composer use it; tests run it as is.
 */

/** The `@token` before the caret: where its `@` is, and what follows it (without a leading quote). */
export type MentionQuery = { start: number; end: number; query: string; quoted: boolean }

/** A running child the person can message (the `sessions.steer` of the run map's message box). */
export type MentionChild = { id: string; agentType: string; label: string }

export type MentionOption =
  | { kind: 'file'; key: string; path: string; positions: number[] }
  | { kind: 'child'; key: string; child: MentionChild }
  | { kind: 'agent'; key: string; agent: AgentListEntry }

export const MENTION_LIMITS = { files: 8, children: 6, agents: 8 } as const

// `@` at the start or after a space, then a name or a path (letters, digits, `_ . / ~ + -`), or `"` and a path with spaces.
const TOKEN = /(^|\s)@("[^"\n]*|[\p{L}\p{N}_./~+-]*)$/u

export function mentionAt(text: string, caret: number): MentionQuery | null {
  if (caret < 0 || caret > text.length) return null
  const m = TOKEN.exec(text.slice(0, caret))
  if (!m) return null
  const raw = m[2]
  const quoted = raw.startsWith('"')
  return { start: caret - raw.length - 1, end: caret, query: quoted ? raw.slice(1) : raw, quoted }
}

/** How a file is named in the text: `@src/a.ts`, or `@"docs/my notes.md"` when the path has a space (or a quote-less form would end early). */
export function fileToken(path: string): string {
  const rel = path.replace(/\\/g, '/')
  return /[\s"]/.test(rel) ? `@"${rel.replace(/"/g, '')}"` : `@${rel}`
}

/**
 * The options for a query, grouped: running children (their agent type or label contains it), agent types (the
 * name starts with it, as before), then files (the host's ranking, only once something is typed). The exact groups
 * come first so `@rev` + Tab still addresses `reviewer` while the fuzzy file matches arrive.
 */
export function mentionOptions(
  query: string,
  from: { files: { path: string; positions: number[] }[]; children: MentionChild[]; agents: AgentListEntry[] },
  limits: { files: number; children: number; agents: number } = MENTION_LIMITS,
): MentionOption[] {
  const q = query.toLowerCase()
  const children = from.children
    .filter((c) => !q || c.agentType.toLowerCase().startsWith(q) || c.label.toLowerCase().includes(q))
    .slice(0, limits.children)
    .map((child): MentionOption => ({ kind: 'child', key: `child:${child.id}`, child }))
  const agents = from.agents
    .filter((a) => a.name.startsWith(q))
    .slice(0, limits.agents)
    .map((agent): MentionOption => ({ kind: 'agent', key: `agent:${agent.name}`, agent }))
  const files = q
    ? from.files.slice(0, limits.files).map((f): MentionOption => ({ kind: 'file', key: `file:${f.path}`, path: f.path, positions: f.positions }))
    : []
  return [...children, ...agents, ...files]
}

/**
 * What picking an option does to the text: a file becomes its `@path ` token, an agent type `@name ` (the message
 * is addressed to it, as before); a child takes the `@token` out of the text and becomes the message's recipient.
 */
export function applyMention(text: string, m: MentionQuery, option: MentionOption): { text: string; caret: number; to?: MentionChild } {
  const token = option.kind === 'file' ? fileToken(option.path) : option.kind === 'agent' ? `@${option.agent.name}` : ''
  const before = text.slice(0, m.start)
  const rest = text.slice(m.end)
  // A child's pick leaves no token: the space before it goes too when the text goes on with one.
  const after = option.kind === 'child' && /\s$/.test(before) && /^\s/.test(rest) ? rest.slice(1) : rest
  // A token is followed by one space (the text's own, if it goes on with one), the caret after it.
  const insert = token && !/^\s/.test(after) ? `${token} ` : token
  const next = `${before}${insert}${after}`
  const caret = before.length + token.length + (token ? 1 : 0)
  return option.kind === 'child' ? { text: next, caret, to: option.child } : { text: next, caret }
}

/** How many of a transcript's last messages are read for running children (their cards sit near the end). */
const RECENT_MESSAGES = 200

/**
 * The running children of the conversation on screen, each once: the task cards of its recent messages (foreground
 * and background), the background tasks of the root, and — when the run map is loaded for this root — every running
 * agent below the one on screen.
 */
export function runningChildren(o: {
  viewId: string | null
  rootId: string | null
  transcript: Transcript | undefined
  tasks: Record<string, BackgroundTask>
  runMap?: { rootId: string | null; nodes: Record<string, RunNode> }
}): MentionChild[] {
  const found = new Map<string, MentionChild>()
  const t = o.transcript
  if (t) {
    for (let i = Math.max(0, t.messageIds.length - RECENT_MESSAGES); i < t.messageIds.length; i++) {
      for (const p of t.messages.get(t.messageIds[i])?.parts ?? ([] as PartRecord[])) {
        const card = p.type === 'tool-task' ? readTaskCard(p) : null
        if (card?.status === 'running') found.set(card.taskId, { id: card.taskId, agentType: card.agentType, label: card.options?.label ?? card.description })
      }
    }
  }
  for (const task of Object.values(o.tasks)) {
    if (task.status === 'running' && task.parentSessionId === o.viewId && !found.has(task.taskId)) {
      found.set(task.taskId, { id: task.taskId, agentType: task.agentType, label: task.description })
    }
  }
  const map = o.runMap
  if (map && o.viewId && map.rootId === o.rootId) {
    for (const node of Object.values(map.nodes)) {
      if (node.status !== 'running' || node.id === o.viewId || found.has(node.id) || !below(map.nodes, node, o.viewId)) continue
      found.set(node.id, { id: node.id, agentType: node.agentType, label: node.label })
    }
  }
  return [...found.values()]
}

function below(nodes: Record<string, RunNode>, node: RunNode, ancestor: string): boolean {
  for (let p = node.parentId, hops = 0; p !== null && hops < 64; hops++) {
    if (p === ancestor) return true
    p = nodes[p]?.parentId ?? null
  }
  return false
}

/** A stable key for a list of children: the composer re-renders only when who is running changed. */
export function childrenKey(children: MentionChild[]): string {
  return children.map((c) => `${c.id}\u0001${c.agentType}\u0001${c.label}`).join('\u0002')
}

/** The list a key was made from. */
export function childrenFromKey(key: string): MentionChild[] {
  if (!key) return []
  return key.split('\u0002').map((s) => {
    const [id, agentType, label] = s.split('\u0001')
    return { id, agentType, label }
  })
}
