import { memo, useMemo, useState } from 'react'
import { diffRows, diffTexts, type DiffRow } from '../../../src-shared/diff'

/** Rows drawn before "Show all": a whole-file overwrite can be thousands of lines. */
const FIRST_ROWS = 400

type Props = {
  path?: string
  /** the host's unified diff (edit tools, approvals) or a ```diff block */
  unified?: string
  /** a preview computed here while the host has not sent its diff */
  before?: string
  after?: string
  testId?: string
}

/** A line diff with old/new line numbers; the rows come from the shared jsdiff module. */
export const DiffView = memo(function DiffView({ path, unified, before, after, testId }: Props) {
  const rows = useMemo(() => (unified !== undefined ? diffRows(unified) : diffTexts(before ?? '', after ?? '')), [unified, before, after])
  const [all, setAll] = useState(false)
  const shown = all ? rows : rows.slice(0, FIRST_ROWS)
  const added = rows.filter((r) => r.kind === 'add').length
  const removed = rows.filter((r) => r.kind === 'del').length
  return (
    <div className="diff" data-testid={testId ?? 'diff-view'}>
      {(path || rows.length > 0) && (
        <div className="diff-path">
          {path && <span className="diff-file">{path}</span>}
          <span className="diff-stat">
            <span className="diff-stat-add">+{added}</span> <span className="diff-stat-del">−{removed}</span>
          </span>
        </div>
      )}
      <div className="diff-body" role="table" aria-label={path ? `Changes to ${path}` : 'Changes'}>
        {shown.map((r, i) => (
          <Row key={i} row={r} />
        ))}
        {rows.length === 0 && <div className="diff-row dnote" role="row"><span role="cell">No changes.</span></div>}
      </div>
      {!all && rows.length > FIRST_ROWS && (
        <button type="button" className="link-btn diff-more" onClick={() => setAll(true)}>
          Show all {rows.length.toLocaleString()} lines
        </button>
      )}
    </div>
  )
})

const SIGN: Record<DiffRow['kind'], string> = { add: '+', del: '−', ctx: ' ', hunk: '', note: '' }

function Row({ row }: { row: DiffRow }) {
  return (
    <div className={`diff-row d${row.kind}`} role="row" data-kind={row.kind}>
      <span className="diff-no" role="cell" aria-label={row.oldNo === null ? undefined : `old line ${row.oldNo}`}>{row.oldNo ?? ''}</span>
      <span className="diff-no" role="cell" aria-label={row.newNo === null ? undefined : `new line ${row.newNo}`}>{row.newNo ?? ''}</span>
      <span className="diff-sign" role="cell" aria-hidden>{SIGN[row.kind]}</span>
      <span className="diff-text" role="cell">{row.text}</span>
    </div>
  )
}
