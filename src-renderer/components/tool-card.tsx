import { memo, useState } from 'react'
import type { PartRecord } from '../../src-shared'
import { formatDuration } from '../lib/format'
import { useNow } from '../lib/use-now'
import { keyArgument, numberField, sandboxOf, toolInput, toolMetadata, toolName, toolOutput } from '../state/part-data'
import { DiffView } from './diff-view'

const OUTPUT_PREVIEW = 4000

/** One tool call: name, key argument, status, duration; arguments and result behind a disclosure. */
export const ToolCard = memo(function ToolCard({ part }: { part: PartRecord }) {
  const name = toolName(part) ?? part.type
  const input = toolInput(part)
  const output = toolOutput(part)
  const state = part.toolState ?? 'input-available'
  const running = state === 'input-available' || state === 'input-streaming'
  const [open, setOpen] = useState(false)
  const [full, setFull] = useState(false)
  const startedAt = numberField(part, 'startedAt')
  const now = useNow(running && startedAt !== null)
  const duration = numberField(part, 'durationMs') ?? (running && startedAt !== null ? now - startedAt : null)
  const key = keyArgument(name, input)
  const isEdit = name === 'edit_file' || name === 'write_file'

  return (
    <div className={`tool-card state-${state}`} data-testid="tool-card" data-tool={name} data-state={state}>
      <button className="tool-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <StatusIcon state={state} />
        <span className="tool-name">{name}</span>
        <span className="tool-arg" title={key}>{key}</span>
        <span className="tool-meta">
          {state === 'approval-requested' && <span className="pill warn">awaiting approval</span>}
          {name === 'bash' && <SandboxBadge part={part} />}
          {duration !== null && <span className="muted">{formatDuration(duration)}</span>}
        </span>
        <span className="caret" aria-hidden>{open ? '▾' : '▸'}</span>
      </button>
      {isEdit && <EditPreview name={name} input={input} part={part} />}
      {open && (
        <div className="tool-body" data-testid="tool-body">
          {!isEdit && <ToolInput name={name} input={input} />}
          {output !== null && (
            <div className="tool-output">
              <div className="label">{state === 'output-error' ? 'Error' : 'Result'}</div>
              <pre data-testid="tool-output">{full || output.length <= OUTPUT_PREVIEW ? output : output.slice(0, OUTPUT_PREVIEW) + '…'}</pre>
              {output.length > OUTPUT_PREVIEW && !full && (
                <button className="link-btn" onClick={() => setFull(true)}>
                  Show all {output.length.toLocaleString()} characters
                </button>
              )}
            </div>
          )}
          {output === null && <div className="muted small">No result yet.</div>}
        </div>
      )}
      {!open && state === 'output-error' && output && <div className="tool-error-line">{output.split('\n')[0]}</div>}
    </div>
  )
})

/** Where a bash command ran: in the OS sandbox (and whether it had network), or unconfined and why. */
function SandboxBadge({ part }: { part: PartRecord }) {
  const s = sandboxOf(part)
  if (!s) return null
  if (s.mode === 'bwrap' || s.mode === 'seatbelt') {
    const title = `${s.mode === 'bwrap' ? 'bubblewrap' : 'macOS Seatbelt'}: writes only in the workspace and a temp folder; network ${s.network ? 'on' : 'off'}`
    return <span className="pill ok" data-testid="sandbox-badge" data-mode={s.mode} title={title}>sandboxed{s.network ? ' · net' : ''}</span>
  }
  return <span className="pill warn" data-testid="sandbox-badge" data-mode={s.mode} title={s.reason}>no sandbox</span>
}

function ToolInput({ name, input }: { name: string; input: Record<string, unknown> }) {
  if (name === 'bash' && typeof input.command === 'string') return <pre className="command">$ {input.command}</pre>
  const keys = Object.keys(input)
  if (keys.length === 0) return null
  return <pre className="tool-input">{JSON.stringify(input, null, 2)}</pre>
}

function EditPreview({ name, input, part }: { name: string; input: Record<string, unknown>; part: PartRecord }) {
  const path = typeof input.path === 'string' ? input.path : undefined
  const meta = toolMetadata(part)
  if (typeof meta.diff === 'string') return <DiffView path={path} unified={meta.diff} />
  if (name === 'edit_file') {
    const before = typeof input.old_string === 'string' ? input.old_string : ''
    const after = typeof input.new_string === 'string' ? input.new_string : ''
    return <DiffView path={path} before={before} after={after} />
  }
  const content = typeof input.content === 'string' ? input.content : ''
  return <DiffView path={path} before="" after={content.length > 20_000 ? content.slice(0, 20_000) : content} />
}

export function StatusIcon({ state }: { state: string }) {
  if (state === 'output-available' || state === 'completed') return <span className="status-icon ok" aria-label="done">✓</span>
  if (state === 'output-error' || state === 'failed') return <span className="status-icon err" aria-label="failed">✕</span>
  if (state === 'aborted') return <span className="status-icon err" aria-label="aborted">■</span>
  if (state === 'approval-requested') return <span className="status-icon warn" aria-label="awaiting approval">⚑</span>
  if (state === 'queued') return <span className="status-icon muted" aria-label="queued">…</span>
  return <span className="spinner" aria-label="running" />
}
