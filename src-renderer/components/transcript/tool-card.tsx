import { memo, useState } from 'react'
import { parseMcpToolName, type PartRecord } from '../../../src-shared'
import { formatDuration } from '../../lib/format'
import { useNow } from '../../lib/use-now'
import { keyArgument, numberField, sandboxOf, toolInput, toolMetadata, toolName, toolOutput } from '../../state/part-data'
import { DiffView } from '../common/diff-view'

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
  const todos = name === 'todo' ? readTodos(input) : null
  const mcp = parseMcpToolName(name)
  // Cut short by an abort (the person's Stop, mostly): not a failure of the tool, so grey, not a red ✕.
  const stopped = state === 'output-error' && toolMetadata(part).aborted === true
  // A question's answer, on the row itself: it was hidden in the collapsed card (issue 28).
  const answered = name === 'question' && state === 'output-available' ? toolMetadata(part).answer : undefined
  const answer = typeof answered === 'string' ? answered : null

  return (
    <div className={`tool-card state-${state}`} data-testid="tool-card" data-tool={name} data-state={state} data-stopped={stopped || undefined}>
      <button className="tool-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <StatusIcon state={stopped ? 'stopped' : state} />
        <span className="tool-name" title={name}>{mcp ? mcp.tool : name}</span>
        {mcp && (
          <span className="pill tool-server" data-testid="tool-server" title={`A tool of the MCP server "${mcp.server}"`}>
            MCP · {mcp.server}
          </span>
        )}
        <span className="tool-arg" title={key}>{key}</span>
        {answer !== null && (
          <span className="tool-answer" data-testid="question-answer" title={`You answered: ${answer}`}>
            → {answer}
          </span>
        )}
        <span className="tool-meta">
          {state === 'approval-requested' && <span className="pill warn">{name === 'question' ? 'awaiting your answer' : 'awaiting approval'}</span>}
          {part.data.autoAllowed === 'read-only' && (
            <span className="pill" data-testid="read-only-badge" title="Ran without asking: a read-only command. Settings → Sandbox turns this off.">read-only</span>
          )}
          {name === 'bash' && <SandboxBadge part={part} />}
          {duration !== null && <span className="muted">{formatDuration(duration)}</span>}
        </span>
        <span className="caret" aria-hidden>{open ? '▾' : '▸'}</span>
      </button>
      {isEdit && <EditPreview name={name} input={input} part={part} />}
      {todos && <TodoList todos={todos} />}
      {open && (
        <div className="tool-body" data-testid="tool-body">
          {!isEdit && !todos && <ToolInput name={name} input={input} />}
          {output !== null && (
            <div className="tool-output">
              <div className="label">{stopped ? 'Stopped' : state === 'output-error' ? 'Error' : 'Result'}</div>
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
      {!open && stopped && <div className="tool-stopped-line" data-testid="tool-stopped">Stopped before it finished</div>}
      {!open && !stopped && state === 'output-error' && output && <div className="tool-error-line">{output.split('\n')[0]}</div>}
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
  if (s.mode === 'container') return <span className="pill ok" data-testid="sandbox-badge" data-mode={s.mode} title={`Ran in ${s.reason ?? 'its container'}; network ${s.network ? 'on' : 'off'}`}>container{s.network ? ' · net' : ''}</span>
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
  // The host's diff once it has run (against the real file); until then a preview from the arguments.
  if (typeof meta.diff === 'string') return <DiffView path={path} unified={meta.diff} />
  if (name === 'edit_file') {
    const before = typeof input.old_string === 'string' ? input.old_string : ''
    const after = typeof input.new_string === 'string' ? input.new_string : ''
    return <DiffView path={path} before={before} after={after} />
  }
  const content = typeof input.content === 'string' ? input.content : ''
  return <DiffView path={path} before="" after={content.length > 200_000 ? content.slice(0, 200_000) : content} />
}

type Todo = { content: string; status: 'pending' | 'in_progress' | 'completed' }

function readTodos(input: Record<string, unknown>): Todo[] {
  const list = Array.isArray(input.todos) ? input.todos : []
  return list.flatMap((t): Todo[] => {
    if (!t || typeof t !== 'object') return []
    const o = t as Record<string, unknown>
    if (typeof o.content !== 'string') return []
    const status = o.status === 'completed' || o.status === 'in_progress' ? o.status : 'pending'
    return [{ content: o.content, status }]
  })
}

const TODO_LABEL: Record<Todo['status'], string> = { pending: 'to do', in_progress: 'in progress', completed: 'done' }

/** The agent's task list as a checklist (the `todo` tool sends the whole list each time). */
function TodoList({ todos }: { todos: Todo[] }) {
  const done = todos.filter((t) => t.status === 'completed').length
  return (
    <div className="todo-list" data-testid="todo-list">
      <div className="todo-count">
        {done} of {todos.length} done
      </div>
      <ul>
        {todos.map((t, i) => (
          <li key={i} className={`todo todo-${t.status}`} data-testid="todo-item" data-status={t.status}>
            <input type="checkbox" checked={t.status === 'completed'} readOnly disabled aria-label={`${t.content}: ${TODO_LABEL[t.status]}`} />
            <span className="todo-text">{t.content}</span>
            {t.status === 'in_progress' && <span className="pill status-running">in progress</span>}
          </li>
        ))}
      </ul>
      {todos.length === 0 && <div className="small">The list is empty.</div>}
    </div>
  )
}

export function StatusIcon({ state }: { state: string }) {
  if (state === 'output-available' || state === 'completed') return <span className="status-icon ok" role="img" aria-label="done">✓</span>
  if (state === 'output-error' || state === 'failed') return <span className="status-icon err" role="img" aria-label="failed">✕</span>
  // a run stopped by a budget the person set: an expected end, amber rather than a red failure
  if (state === 'budget') return <span className="status-icon warn" role="img" aria-label="stopped at its budget">■</span>
  if (state === 'not_started') return <span className="status-icon muted" role="img" aria-label="not started">○</span>
  if (state === 'aborted') return <span className="status-icon err" role="img" aria-label="aborted">■</span>
  // the person's Stop (a card, a map row, a tool call cut by it): an expected end, grey
  if (state === 'stopped') return <span className="status-icon stopped" role="img" aria-label="stopped">■</span>
  if (state === 'approval-requested') return <span className="status-icon warn" role="img" aria-label="awaiting approval">⚑</span>
  if (state === 'queued') return <span className="status-icon muted" role="img" aria-label="queued">…</span>
  return <span className="spinner" role="img" aria-label="running" />
}
