import { useState, type FormEvent } from 'react'
import type { AgentMode } from '../../../src-shared'
import { AGENTRY_TOOLS } from '../../../src-shared/agent-tools'
import { toggled } from '../../lib/sets'
import type { UiError } from '../../state/ui-error'
import { createAgent } from '../../state/workspace-actions'
import { useWorkspace } from '../../state/workspace-store'
import { ErrorNote } from '../common/error-note'

// plan_exit belongs to the built-in plan agent's flow; a new agent gets the everyday tools.
const TOOLS = AGENTRY_TOOLS.filter((t) => t !== 'plan_exit')
const MODEL_SUGGESTIONS = ['inherit', 'sonnet', 'opus', 'haiku']

/**
 * "New agent": name, description, mode, tools, model, prompt → an ordinary `.md` agent file in the workspace's
 * or the user's agents folder (never over an existing file), which then loads like any other.
 */
export function NewAgentForm({ onCreated, onCancel }: { onCreated(file: string, name: string): void; onCancel(): void }) {
  const root = useWorkspace((s) => s.root)
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [mode, setMode] = useState<AgentMode>('subagent')
  const [scope, setScope] = useState<'workspace' | 'user'>('workspace')
  const [model, setModel] = useState('')
  const [tools, setTools] = useState<Set<string>>(new Set(TOOLS))
  const [prompt, setPrompt] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<UiError | null>(null)

  const toggle = (t: string) => setTools((prev) => toggled(prev, t))

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!root) return
    setBusy(true)
    const res = await createAgent({
      workspaceRoot: root,
      scope,
      name: name.trim(),
      description: description.trim(),
      mode,
      tools: tools.size === TOOLS.length ? undefined : TOOLS.filter((t) => tools.has(t)),
      model: model.trim() || undefined,
      prompt,
    })
    setBusy(false)
    if (!res.ok) return setError(res.error)
    setError(null)
    onCreated(res.data.file, res.data.name)
  }

  return (
    <form className="new-agent" data-testid="new-agent-form" onSubmit={submit}>
      <div className="new-agent-grid">
        <label className="field">
          <span className="label">Name</span>
          <input className="input" data-testid="new-agent-name" required value={name} placeholder="Code Reviewer" onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span className="label">Mode</span>
          <select className="select" data-testid="new-agent-mode" value={mode} onChange={(e) => setMode(e.target.value as AgentMode)}>
            <option value="subagent">subagent — called by other agents</option>
            <option value="primary">primary — picked for a session</option>
            <option value="all">all — both</option>
          </select>
        </label>
        <label className="field">
          <span className="label">Model</span>
          <input className="input" data-testid="new-agent-model" list="new-agent-models" value={model} placeholder="inherit" onChange={(e) => setModel(e.target.value)} />
          <datalist id="new-agent-models">
            {MODEL_SUGGESTIONS.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </label>
        <label className="field">
          <span className="label">Save in</span>
          <select className="select" data-testid="new-agent-scope" value={scope} onChange={(e) => setScope(e.target.value as 'workspace' | 'user')}>
            <option value="workspace">this workspace</option>
            <option value="user">my agents (every workspace)</option>
          </select>
        </label>
      </div>
      <label className="field">
        <span className="label">Description — when to use it (other agents read this)</span>
        <input className="input" data-testid="new-agent-description" required value={description} placeholder="Reviews a change and lists concrete problems" onChange={(e) => setDescription(e.target.value)} />
      </label>
      <span className="label">Tools</span>
      <div className="new-agent-tools" data-testid="new-agent-tools">
        {TOOLS.map((t) => (
          <label key={t} className="check">
            <input type="checkbox" data-testid={`new-agent-tool-${t}`} checked={tools.has(t)} onChange={() => toggle(t)} /> {t}
          </label>
        ))}
      </div>
      <label className="field">
        <span className="label">Prompt</span>
        <textarea className="input" data-testid="new-agent-prompt" rows={6} value={prompt} placeholder="You are a careful code reviewer…" onChange={(e) => setPrompt(e.target.value)} />
      </label>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} testId="new-agent-error" />}
      <div className="row new-agent-actions">
        <button className="btn primary" type="submit" data-testid="new-agent-save" disabled={busy || !name.trim() || !description.trim()}>
          Create agent file
        </button>
        <button className="btn ghost" type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
