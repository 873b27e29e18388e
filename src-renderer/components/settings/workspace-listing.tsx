import { useEffect, useState, type ReactNode } from 'react'
import { useSettings } from '../../state/settings-store'
import type { UiError, UiResult } from '../../state/ui-error'
import { useWorkspace } from '../../state/workspace-store'
import { ErrorNote } from '../common/error-note'

/**
 * The read-only Settings sections that list what was found for the open workspace — Skills, Commands, Hooks (issue
 * 27) — share this frame: a card with a heading and what is read from where, the call's error, the files that could
 * not be used with their reason, then the section's own table. Each reloads when the workspace or Settings change.
 */
export function useWorkspaceListing<T>(load: (workspaceRoot: string) => Promise<UiResult<T>>): { root: string | null; list: T | null; error: UiError | null } {
  const root = useWorkspace((s) => s.root)
  const settings = useSettings((s) => s.settings)
  const [list, setList] = useState<T | null>(null)
  const [error, setError] = useState<UiError | null>(null)
  useEffect(() => {
    if (!root) return
    void load(root).then((r) => (r.ok ? (setList(r.data), setError(null)) : setError(r.error)))
  }, [root, settings, load])
  return { root, list, error }
}

/** A file (and where in it) that could not be used, with the reason. */
export type LoadProblem = { file: string; line?: number; path?: string; reason: string }

export function ListingSection(props: { id: string; title: string; intro: ReactNode; error: UiError | null; children: ReactNode }) {
  return (
    <section className="card" data-testid={props.id} id={props.id}>
      <h2>{props.title}</h2>
      <p className="muted small">{props.intro}</p>
      {props.error && <ErrorNote error={props.error} />}
      {props.children}
    </section>
  )
}

/** The files not used, each with its reason; nothing when there are none. */
export function LoadErrors({ label, testId, itemTestId, errors }: { label: string; testId: string; itemTestId: string; errors: LoadProblem[] }) {
  if (errors.length === 0) return null
  return (
    <div className="load-errors" data-testid={testId}>
      <div className="label">{label}</div>
      {errors.map((e, i) => (
        <div key={i} className="callout error" data-testid={itemTestId}>
          <code>
            {e.file}
            {e.line ? `:${e.line}` : ''}
            {e.path ? ` › ${e.path}` : ''}
          </code>
          <div>{e.reason}</div>
        </div>
      ))}
    </div>
  )
}

type Warning = { line?: number; reason: string }

/** A loaded file's warnings (what the loader recovered from): a count beside the name, one line each below. */
export function WarningCount({ warnings, testId }: { warnings: Warning[]; testId: string }) {
  if (warnings.length === 0) return null
  return (
    <span className="badge waiting" data-testid={testId} title={warnings.map((w) => `${w.line ? `line ${w.line}: ` : ''}${w.reason}`).join('\n')}>
      ⚠ {warnings.length}
    </span>
  )
}

export function WarningList({ warnings, testId }: { warnings: Warning[]; testId: string }) {
  if (warnings.length === 0) return null
  return (
    <ul className="issues small" data-testid={testId}>
      {warnings.map((w, i) => (
        <li key={i}>
          {w.line ? <span className="muted">line {w.line}: </span> : null}
          {w.reason}
        </li>
      ))}
    </ul>
  )
}

const SOURCE_LABEL = { builtin: 'built-in', person: 'yours', workspace: 'workspace', skill: 'skill' } as const

/** Whose it is (Agentry's, the person's, the workspace's) and the file it was read from. */
export function SourceCell({ source, file }: { source: keyof typeof SOURCE_LABEL; file?: string }) {
  return (
    <td className="small">
      {SOURCE_LABEL[source]}
      {file && (
        <div className="mono muted" title={file}>
          {file}
        </div>
      )}
    </td>
  )
}
