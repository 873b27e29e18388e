import type { ApprovalRecord } from '../../src-shared'

/**
 * The inbox: every pending decision of every session of every workspace, as one list. Pure functions over the
 * approvals store, so ordering and selection are tested without a screen.
 */

/** A conversation (root session) as far as the inbox needs it: where it lives and what it is called. */
export type Conversation = { workspaceRoot: string; title: string }

export type InboxItem = {
  approval: ApprovalRecord
  /** null while neither the host nor an event said (an approval from before the host filled it) */
  workspaceRoot: string | null
  conversationTitle: string
  /** Allow once / Deny together make sense for it: a question needs its own answer */
  batchable: boolean
}

export const UNTITLED = 'Untitled conversation'

/**
 * Newest first, across workspaces. The conversation's live title (a title arrives after the first answer) wins over
 * the one the approval was stamped with; `known` holds what the sessions list and the global feed told us.
 */
export function inboxItems(pending: Record<string, ApprovalRecord>, known: Record<string, Conversation>): InboxItem[] {
  return Object.values(pending)
    .filter((a) => a.status === 'pending')
    .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id))
    .map((a) => {
      const c = known[a.rootSessionId]
      return {
        approval: a,
        workspaceRoot: a.workspaceRoot ?? c?.workspaceRoot ?? null,
        conversationTitle: c?.title || a.conversationTitle || UNTITLED,
        batchable: isBatchable(a),
      }
    })
}

/**
 * Tools, plans and budgets are answered with allow_once / deny (a plan: approve / reject; a budget: go on / stop), so
 * they can be answered together. A question wants its own words.
 */
export function isBatchable(a: ApprovalRecord): boolean {
  return a.kind !== 'question'
}

/** The folder's name, for a label (the full path goes in its title). */
export function workspaceName(root: string): string {
  const parts = root.split(/[\\/]/).filter(Boolean)
  return parts.at(-1) ?? root
}

export type SelectionState = 'none' | 'some' | 'all'

/** What is selected and still answerable together, in list order (an answered item leaves the selection). */
export function batchTargets(selected: ReadonlySet<string>, items: InboxItem[]): string[] {
  return items.filter((i) => i.batchable && selected.has(i.approval.id)).map((i) => i.approval.id)
}

/** For the "select all" box: none, some (indeterminate) or all of the answerable items. */
export function selectionState(selected: ReadonlySet<string>, items: InboxItem[]): SelectionState {
  const total = items.filter((i) => i.batchable).length
  const n = batchTargets(selected, items).length
  return n === 0 ? 'none' : n === total ? 'all' : 'some'
}

/** "Select all": selects every answerable item, or clears the selection when all already are. */
export function toggleAll(selected: ReadonlySet<string>, items: InboxItem[]): Set<string> {
  if (selectionState(selected, items) === 'all') return new Set()
  return new Set(items.filter((i) => i.batchable).map((i) => i.approval.id))
}

export function toggleOne(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected)
  if (next.has(id)) next.delete(id)
  else next.add(id)
  return next
}

/** Drops ids that left the list (answered here or elsewhere), keeping the same set when nothing changed. */
export function pruneSelection<S extends ReadonlySet<string>>(selected: S, items: InboxItem[]): S | Set<string> {
  const live = new Set(batchTargets(selected, items))
  return live.size === selected.size ? selected : live
}
