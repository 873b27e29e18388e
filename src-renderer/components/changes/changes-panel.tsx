import { memo, useMemo, useState } from 'react'
import type { TurnChanges, TurnFileChange } from '../../../src-shared'
import { formatDateTime, formatWhen } from '../../lib/format'
import { loadChanges, openChangedFile, toggleChangesPanel } from '../../state/changes-actions'
import { openRestore, useChanges } from '../../state/changes-store'
import { authorsText, displayPath, fileStat, hunkPatch, plural, statusLetter, turnsNewestFirst } from '../../state/changes-view'
import { isRunning } from '../../state/session-status'
import { useTranscript } from '../../state/transcript-store'
import { DiffView } from '../common/diff-view'
import { ErrorNote } from '../common/error-note'

/**
 * What each turn of the session on screen changed in the workspace, newest first: its files with who changed them
 * and the diff, Revert per file, Undo from a turn on. It takes the tasks panel's place while open.
 */
export function ChangesPanel() {
  const viewId = useTranscript((s) => s.viewId)
  const busy = useTranscript((s) => (s.viewId ? isRunning(s.transcripts[s.viewId]?.status) || (s.queue[s.viewId]?.length ?? 0) > 0 : false))
  const sessionId = useChanges((s) => s.sessionId)
  const turns = useChanges((s) => s.turns)
  const worktrees = useChanges((s) => s.worktrees)
  const loading = useChanges((s) => s.loading)
  const error = useChanges((s) => s.error)
  const list = useMemo(() => turnsNewestFirst(turns), [turns])
  if (!viewId) return null
  const mine = sessionId === viewId
  return (
    <section className="changes-panel" data-testid="changes-panel" aria-labelledby="changes-title" aria-busy={loading}>
      <div className="panel-head">
        <h2 id="changes-title" className="panel-title">Changes</h2>
        <span className="spacer" />
        <button className="icon-btn" data-testid="changes-refresh" aria-label="Refresh the changes" title="Refresh" disabled={loading} onClick={() => void loadChanges(viewId)}>
          ↻
        </button>
        <button className="icon-btn" data-testid="changes-close" aria-label="Close the changes panel" title="Close" onClick={() => toggleChangesPanel(false)}>
          ×
        </button>
      </div>
      {error && mine && <ErrorNote error={error} />}
      {mine && worktrees.length > 0 && <WorktreesSection sessionId={viewId} worktrees={worktrees} busy={busy} />}
      {mine && !loading && !error && list.length === 0 && (
        <div className="changes-empty" data-testid="changes-empty">
          <p>No recorded changes yet</p>
          <p className="muted small">The workspace is recorded before and after every turn: the files agents change show here, with who changed them.</p>
        </div>
      )}
      {!mine && loading && <p className="muted small">Loading…</p>}
      {mine && list.map((t) => <TurnSection key={t.checkpointId} sessionId={viewId} turn={t} busy={busy} />)}
    </section>
  )
}

/** Kept worktrees of the conversation's tasks: their changes are on a branch until applied to the workspace. */
function WorktreesSection({ sessionId, worktrees, busy }: { sessionId: string; worktrees: ReturnType<typeof useChanges.getState>['worktrees']; busy: boolean }) {
  return (
    <section className="change-turn change-worktrees" data-testid="change-worktrees" aria-labelledby="worktrees-title">
      <div className="change-turn-head">
        <h3 id="worktrees-title" className="change-turn-title">Worktrees waiting to be applied</h3>
      </div>
      <ul className="change-files">
        {worktrees.map((w) => (
          <li key={w.taskId} className="change-file" data-testid="change-worktree" data-task-id={w.taskId}>
            <div className="change-file-row">
              <span className="pill" title={w.worktree.path}>⎇ {w.worktree.branch}</span>
              <span className="change-path" title={w.description}>{w.agentType}: {w.description}</span>
              <span className="spacer" />
              <button
                className="btn small"
                data-testid="change-apply-worktree"
                disabled={busy}
                title={busy ? 'Wait for the session to finish (or stop it) first' : 'Merge what it changed into the workspace (all or nothing)'}
                onClick={() => openRestore({ op: 'apply', sessionId, taskId: w.taskId, branch: w.worktree.branch })}
              >
                Apply to workspace
              </button>
            </div>
            {w.worktree.diffStat && <div className="change-authors muted">{w.worktree.diffStat}</div>}
          </li>
        ))}
      </ul>
    </section>
  )
}

const STATE_LABEL: Partial<Record<TurnChanges['state'], string>> = { undone: 'undone', running: 'running', expired: 'expired' }

const TurnSection = memo(function TurnSection({ sessionId, turn, busy }: { sessionId: string; turn: TurnChanges; busy: boolean }) {
  const applied = turn.state === 'applied'
  const title = turn.messagePreview || (turn.messageId ? '(a message without text)' : '(no message)')
  const badge = STATE_LABEL[turn.state]
  const headId = `turn-${turn.checkpointId}`
  return (
    <section className={`change-turn state-${turn.state}`} data-testid="change-turn" data-state={turn.state} data-checkpoint-id={turn.checkpointId} aria-labelledby={headId}>
      <div className="change-turn-head">
        <h3 id={headId} className="change-turn-title" title={turn.messagePreview}>
          {title}
        </h3>
        <div className="change-turn-meta">
          <time dateTime={new Date(turn.startedAt).toISOString()} title={formatDateTime(turn.startedAt)}>
            {formatWhen(turn.startedAt, Date.now())}
          </time>
          <span>· {plural(turn.files.length, 'file')}</span>
          {badge && <span className={`pill status-${turn.state}`} data-testid="change-turn-state">{badge}</span>}
          <span className="spacer" />
          {applied && turn.messageId && (
            <button
              className="btn small"
              data-testid="change-undo-from"
              disabled={busy}
              title={busy ? 'Wait for the session to finish (or stop it) first' : 'Take back this turn and every later one, and rewind the conversation to this message'}
              onClick={() => openRestore({ op: 'undo', sessionId, toMessageId: turn.messageId! })}
            >
              Undo from here
            </button>
          )}
        </div>
      </div>
      {turn.error && <div className="change-turn-error" data-testid="change-turn-error">{turn.error}</div>}
      {turn.files.length === 0 && !turn.error && <div className="muted small change-none">{turn.state === 'running' ? 'Still running…' : 'No files changed.'}</div>}
      {turn.files.length > 0 && (
        <ul className="change-files">
          {turn.files.map((f) => (
            <FileRow key={`${f.oldPath ?? ''}:${f.path}`} sessionId={sessionId} turn={turn} file={f} busy={busy} />
          ))}
        </ul>
      )}
    </section>
  )
})

const STATUS_NAME: Record<TurnFileChange['status'], string> = { added: 'added', modified: 'modified', deleted: 'deleted', renamed: 'renamed' }

function FileRow({ sessionId, turn, file, busy }: { sessionId: string; turn: TurnChanges; file: TurnFileChange; busy: boolean }) {
  const [open, setOpen] = useState(false)
  const shown = displayPath(file)
  const diffId = `diff-${turn.checkpointId}-${file.path}`
  return (
    <li className="change-file" data-testid="change-file" data-path={file.path} data-status={file.status}>
      <div className="change-file-row">
        <button className="change-file-toggle" data-testid="change-file-toggle" aria-expanded={open} aria-controls={open ? diffId : undefined} onClick={() => setOpen(!open)}>
          <span className="caret" aria-hidden>{open ? '▾' : '▸'}</span>
          <span className={`change-status status-${file.status}`} title={STATUS_NAME[file.status]}>
            <span aria-hidden>{statusLetter(file.status)}</span>
            <span className="visually-hidden">{STATUS_NAME[file.status]}</span>
          </span>
          <span className="change-path" title={shown}>{shown}</span>
          <span className="change-stat" data-testid="change-stat">
            {file.binary || file.nested ? (
              fileStat(file)
            ) : (
              <>
                <span className="diff-stat-add">+{file.additions}</span> <span className="diff-stat-del">−{file.deletions}</span>
              </>
            )}
          </span>
        </button>
        {file.status !== 'deleted' && (
          <button className="btn small" data-testid="change-open-file" aria-label={`Open ${file.path}`} title="Open it with your default application" onClick={() => void openChangedFile(sessionId, file.path)}>
            Open
          </button>
        )}
        {turn.state === 'applied' && (
          <button
            className="btn small"
            data-testid="change-revert-file"
            aria-label={`Revert file ${file.path}`}
            disabled={busy}
            onClick={() => openRestore({ op: 'revert', sessionId, checkpointId: turn.checkpointId, paths: [file.path], what: `this turn’s change of ${file.path}` })}
          >
            Revert file
          </button>
        )}
      </div>
      <div className={`change-authors ${file.authors.length ? '' : 'none'}`} data-testid="change-authors">
        {file.authors.length > 0 && <span className="muted">by </span>}
        {authorsText(file.authors)}
      </div>
      {open && (
        <div id={diffId} className="change-diff">
          {file.nested ? (
            <div className="muted small">A nested git repository: recorded as its commit only.</div>
          ) : file.binary ? (
            <div className="muted small">Binary file: no text diff.</div>
          ) : file.hunks.length === 0 ? (
            <div className="muted small">{file.status === 'renamed' ? 'Renamed; the content is the same.' : 'No line changes (the file mode changed, or it is empty).'}</div>
          ) : file.hunks.length > 1 && turn.state === 'applied' ? (
            // Several changes in one file: each can be taken back on its own (the others, and later edits, stay).
            file.hunks.map((h, i) => (
              <div key={h.header} className="change-hunk" data-testid="change-hunk">
                <DiffView unified={hunkPatch(file, i)} testId="change-diff" />
                <button
                  className="btn small"
                  data-testid="change-revert-hunk"
                  aria-label={`Revert change ${i + 1} of ${file.path}`}
                  disabled={busy}
                  onClick={() => openRestore({ op: 'revert', sessionId, checkpointId: turn.checkpointId, paths: [file.path], hunk: i, what: `change ${i + 1} of ${file.hunks.length} in ${file.path} (lines ${h.oldStart}–${h.oldStart + Math.max(0, h.oldLines - 1)})` })}
                >
                  Revert this change
                </button>
              </div>
            ))
          ) : (
            <DiffView unified={file.patch} testId="change-diff" />
          )}
        </div>
      )}
    </li>
  )
}
