import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useNow } from '../../lib/use-now'
import { useAgents } from '../../state/agents-store'
import { isActive, type RunRow } from '../../state/run-map-rows'
import { showRunNode } from '../../state/run-map-actions'
import { toggleRunCollapsed } from '../../state/run-map-store'
import { RunRowView } from './run-row'

const ROW = 52
const WITH_MESSAGE = ROW + 48

type Props = { rows: RunRow[]; waiting: Record<string, number>; selectedId: string | null }

/**
 * The map's rows as an ARIA tree, virtualized (a fan-out of hundreds draws only what is in sight): one Tab stop;
 * ↑/↓ move, ←/→ fold or go to the parent / first child, Enter opens, m writes to a running agent.
 */
export function RunTree({ rows, waiting, selectedId }: Props) {
  const byName = useAgents((s) => s.byName)
  const scroller = useRef<HTMLDivElement>(null)
  const [focusId, setFocusId] = useState<string | null>(null)
  const [messaging, setMessaging] = useState<string | null>(null)
  // A row moved to with the keyboard, to focus once it is drawn (a far one appears only after the scroll).
  const pendingFocus = useRef<string | null>(null)
  const now = useNow(rows.some((r) => isActive(r.node)))
  const indexOf = useMemo(() => new Map(rows.map((r, i) => [r.node.id, i])), [rows])

  // Stable callbacks reading the latest rows: new ones per frame would make the virtualizer redo every row's offset.
  const rowsRef = useRef(rows)
  rowsRef.current = rows
  // The message box stays open when its agent ends (a draft is never lost; sending then shows why it cannot go).
  const open = messaging !== null && indexOf.has(messaging) ? messaging : null
  const estimateSize = useCallback((i: number) => (rowsRef.current[i]?.node.id === open ? WITH_MESSAGE : ROW), [open])
  const getItemKey = useCallback((i: number) => rowsRef.current[i]?.node.id ?? i, [])
  const v = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize, getItemKey, overscan: 8 })
  // Row heights are known, not measured: a message box opening or closing changes one.
  useEffect(() => v.measure(), [v, open])

  // The Tab stop: the row last moved to, else the node shown beside the map, else the first row.
  const current = focusId !== null && indexOf.has(focusId) ? focusId : selectedId !== null && indexOf.has(selectedId) ? selectedId : (rows[0]?.node.id ?? null)

  const focusPending = () => {
    const id = pendingFocus.current
    const el = id === null ? null : scroller.current?.querySelector<HTMLElement>(`[data-node-id="${CSS.escape(id)}"]`)
    if (!el) return
    pendingFocus.current = null
    el.focus({ preventScroll: true })
  }
  // After every render: the row may have just been drawn.
  useEffect(focusPending)

  const moveTo = (i: number) => {
    const r = rows[Math.max(0, Math.min(rows.length - 1, i))]
    if (!r) return
    pendingFocus.current = r.node.id
    v.scrollToIndex(i < 0 ? 0 : Math.min(rows.length - 1, i), { align: 'auto' })
    setFocusId(r.node.id)
    focusPending()
  }

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (current === null || (e.target as HTMLElement).getAttribute('role') !== 'treeitem' || e.altKey || e.ctrlKey || e.metaKey) return
    const i = indexOf.get(current) ?? 0
    const row = rows[i]
    const handled = () => e.preventDefault()
    switch (e.key) {
      case 'ArrowDown':
        handled()
        return moveTo(i + 1)
      case 'ArrowUp':
        handled()
        return moveTo(i - 1)
      case 'Home':
        handled()
        return moveTo(0)
      case 'End':
        handled()
        return moveTo(rows.length - 1)
      case 'ArrowRight':
        handled()
        if (row.hasChildren && row.collapsed) toggleRunCollapsed(row.node.id, false)
        else if (row.hasChildren) moveTo(i + 1)
        return
      case 'ArrowLeft': {
        handled()
        if (row.hasChildren && !row.collapsed) return toggleRunCollapsed(row.node.id, true)
        const parent = row.node.parentId
        if (parent !== null && indexOf.has(parent)) moveTo(indexOf.get(parent) ?? 0)
        return
      }
      case 'Enter':
      case ' ':
        handled()
        return showRunNode(row.node)
      case 'm':
      case 'M':
        if (row.node.status !== 'running') return
        handled()
        v.scrollToIndex(i, { align: 'auto' })
        return setMessaging(row.node.id)
    }
  }

  const items = v.getVirtualItems()
  return (
    <div
      ref={scroller}
      className="vlist run-tree"
      data-testid="run-tree"
      role="tree"
      aria-label="Agents of this conversation"
      onKeyDown={onKey}
      onFocus={(e) => {
        const id = (e.target as HTMLElement).dataset.nodeId
        if (id && id !== focusId) setFocusId(id)
      }}
    >
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rows[item.index]
          const id = row.node.id
          return (
            <div key={item.key} className="vrow" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}>
              <RunRowView
                {...row}
                agent={byName[row.node.agentType]}
                waiting={waiting[id] ?? 0}
                now={isActive(row.node) ? now : 0}
                selected={id === selectedId}
                current={id === current}
                messaging={id === open}
                setMessaging={setMessaging}
              />
            </div>
          )
        })}
      </div>
    </div>
  )
}
