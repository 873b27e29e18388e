import { useEffect, useMemo } from 'react'
import { formatUsd } from '../../../src-shared'
import { useThrottled } from '../../lib/use-throttled'
import { useApprovals } from '../../state/approvals-store'
import { loadRunMap, toggleRunMap } from '../../state/run-map-actions'
import { runMapRows, runMapSummary, type RunMapSummary } from '../../state/run-map-rows'
import { useRunMap, waitingByNode } from '../../state/run-map-store'
import { useTranscript } from '../../state/transcript-store'
import { ErrorNote } from '../common/error-note'
import { RunTree } from './run-tree'
import '../../styles/run-map.css'

const MAP_MS = 200
const selectNodes = (s: ReturnType<typeof useRunMap.getState>) => s.nodes

/** Every agent the open conversation started, as a live tree beside the transcript (issue 26). */
export function RunMapPanel() {
  const rootId = useTranscript((s) => s.rootId)
  const viewId = useTranscript((s) => s.viewId)
  const mapRoot = useRunMap((s) => s.rootId)
  // Folded every frame, drawn at most every MAP_MS: hundreds of agents streaming at once need no 60 Hz tree.
  const nodes = useThrottled(useRunMap, selectNodes, MAP_MS)
  const collapsed = useRunMap((s) => s.collapsed)
  const loading = useRunMap((s) => s.loading)
  const ready = useRunMap((s) => s.ready)
  const error = useRunMap((s) => s.error)
  const shown = useRunMap((s) => s.shown)
  const pending = useApprovals((s) => s.pending)

  // Opening the map, or another conversation under it, asks for a snapshot; events keep it live from then on.
  useEffect(() => {
    if (rootId) void loadRunMap(rootId)
  }, [rootId])

  const current = mapRoot === rootId
  const rows = useMemo(() => (current ? runMapRows(nodes, collapsed) : []), [current, nodes, collapsed])
  const waiting = useMemo(() => waitingByNode(pending, rootId), [pending, rootId])
  const summary = useMemo(() => runMapSummary(current ? nodes : {}, waiting), [current, nodes, waiting])
  const selectedId = shown && shown.viewId === viewId ? shown.id : viewId

  return (
    <section className="run-map-panel" data-testid="run-map" aria-labelledby="run-map-title">
      <div className="panel-head">
        <h2 id="run-map-title" className="panel-title">Run map</h2>
        <button className="icon-btn" data-testid="run-map-close" aria-label="Close the run map" title="Close (reopen with Map in the session header)" onClick={() => toggleRunMap(false)}>
          ×
        </button>
      </div>
      <SummaryLine summary={summary} />
      {error && <ErrorNote error={error} testId="run-map-error" />}
      {rows.length > 0 ? (
        <RunTree rows={rows} waiting={waiting} selectedId={selectedId} />
      ) : (
        <div className="muted small pad" data-testid="run-map-empty">
          {loading || !ready ? (error ? '' : 'Loading the agents…') : 'No agents yet.'}
        </div>
      )}
    </section>
  )
}

function SummaryLine({ summary: s }: { summary: RunMapSummary }) {
  const parts = [`${s.agents} agent${s.agents === 1 ? '' : 's'}`, `${s.running} running`]
  if (s.queued > 0) parts.push(`${s.queued} queued`)
  return (
    <p className="run-map-summary" data-testid="run-map-summary" aria-live="off">
      {parts.join(' · ')}
      {' · '}
      <span className={s.waiting > 0 ? 'run-map-waiting' : undefined} data-testid="run-map-waiting">
        {s.waiting} waiting on you
      </span>
      {' · '}
      <span title={s.unpriced ? 'Some models have no known price: the total is a lower bound' : 'Cost of every agent here, at list prices'}>
        {s.unpriced ? '≥ ' : ''}
        {formatUsd(s.costUsd)}
      </span>
    </p>
  )
}
