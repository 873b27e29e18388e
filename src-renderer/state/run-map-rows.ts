import type { RunMap, RunNode } from '../../src-shared'

/** One line of the run map's tree: a node where the tree puts it, with what a tree item says about itself. */
export type RunRow = {
  node: RunNode
  /** 0 for a top-level node (the root); from the tree itself, so an orphan whose parent is unknown still lines up */
  level: number
  hasChildren: boolean
  collapsed: boolean
  /** its place among its siblings (aria-posinset / aria-setsize: most rows are not in the DOM) */
  pos: number
  siblings: number
}

const parentOf = (map: RunMap, n: RunNode): string | null => (n.parentId !== null && map[n.parentId] ? n.parentId : null)

/**
 * The rows a tree view lists: each node followed by its children, without the descendants of collapsed nodes.
 * Siblings keep the order the map first heard of them — the snapshot lists them in the order they were called, and
 * a new child is added at the end — so a queued child does not jump when it starts (runMapOrder sorts by start time).
 */
export function runMapRows(map: RunMap, collapsed: Record<string, true>): RunRow[] {
  const children = new Map<string | null, RunNode[]>()
  for (const n of Object.values(map)) {
    const p = parentOf(map, n)
    const list = children.get(p)
    if (list) list.push(n)
    else children.set(p, [n])
  }
  const rows: RunRow[] = []
  const walk = (parent: string | null, level: number) => {
    const list = children.get(parent) ?? []
    list.forEach((node, i) => {
      const hasChildren = children.has(node.id)
      const isCollapsed = hasChildren && collapsed[node.id] === true
      rows.push({ node, level, hasChildren, collapsed: isCollapsed, pos: i + 1, siblings: list.length })
      if (hasChildren && !isCollapsed) walk(node.id, level + 1)
    })
  }
  walk(null, 0)
  return rows
}

export const isActive = (n: RunNode): boolean => n.status === 'running' || n.status === 'queued'

export type RunMapSummary = { agents: number; running: number; queued: number; waiting: number; costUsd: number; unpriced: boolean }

/**
 * The line over the map: how many agents the root started, how many run, how many wait on the person, and what the
 * whole tree cost (each node's own spend; `unpriced` when some node's price is unknown, so the sum is a lower bound).
 */
export function runMapSummary(map: RunMap, waiting: Record<string, number>): RunMapSummary {
  const out: RunMapSummary = { agents: 0, running: 0, queued: 0, waiting: 0, costUsd: 0, unpriced: false }
  for (const n of Object.values(map)) {
    if (n.parentId !== null) out.agents++
    if (n.status === 'running') out.running++
    if (n.status === 'queued') out.queued++
    if ((waiting[n.id] ?? 0) > 0) out.waiting++
    if (n.costUsd === null) out.unpriced ||= n.tokensIn + n.tokensOut > 0
    else out.costUsd += n.costUsd
  }
  return out
}
