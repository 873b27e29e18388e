import { Fragment, useState } from 'react'
import type { AgentListEntry } from '../../../src-shared'
import { toggled } from '../../lib/sets'
import { agentColor, useAgents } from '../../state/agents-store'
import { ErrorNote } from '../common/error-note'
import { NewAgentForm } from './new-agent-form'
import '../../styles/agents.css'

/**
 * Settings › Agents: every agent with its source file, mode, effective model, tools, permission rules and
 * warnings; shadowed folders and files that could not be loaded; and the "New agent" form.
 */
export function AgentsSection() {
  const agents = useAgents((s) => s.agents)
  const errors = useAgents((s) => s.errors)
  const folders = useAgents((s) => s.folders)
  const disabled = useAgents((s) => s.disabled)
  const loadError = useAgents((s) => s.loadError)
  const [showHidden, setShowHidden] = useState(false)
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<string | null>(null)
  const [open, setOpen] = useState<Set<string>>(new Set())
  const list = agents.filter((a) => showHidden || !a.hidden)
  const toggle = (name: string) => setOpen((prev) => toggled(prev, name))

  return (
    <section className="card" data-testid="settings-agents" id="settings-agents">
      <div className="card-head">
        <h2>Agents</h2>
        <div className="row">
          <label className="check small">
            <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} /> show hidden
          </label>
          <button className="btn small" data-testid="new-agent" onClick={() => { setCreating(true); setCreated(null) }} disabled={creating}>
            New agent
          </button>
        </div>
      </div>
      {creating && (
        <NewAgentForm
          onCancel={() => setCreating(false)}
          onCreated={(file) => {
            setCreating(false)
            setCreated(file)
          }}
        />
      )}
      {created && (
        <div className="callout info" data-testid="agent-created">
          Created <code>{created}</code>. Edit the file to change the agent; changes apply on the next message.
        </div>
      )}
      {loadError && <ErrorNote error={loadError} />}
      {folders
        .filter((f) => f.status === 'shadowed')
        .map((f) => (
          <div key={f.dir} className="callout warn" data-testid="agent-folder-shadowed">
            <code>{f.dir}</code> ({f.files} agent file{f.files === 1 ? '' : 's'}) is not read: <code>{f.shadowedBy}</code> exists, and the first
            existing folder wins. Move the files there, or remove that folder if it is empty.
          </div>
        ))}
      {errors.length > 0 && (
        <div className="load-errors" data-testid="agent-load-errors">
          <div className="label">Agent files that could not be loaded (skipped until fixed)</div>
          {errors.map((e, i) => (
            <div key={i} className="callout error" data-testid="agent-load-error">
              <code>
                {e.file}
                {e.line ? `:${e.line}` : ''}
              </code>
              <div>
                field <code>{e.field || '(file)'}</code>: {e.reason}
              </div>
            </div>
          ))}
        </div>
      )}
      <table className="table agents-table">
        <thead>
          <tr>
            <th>Agent</th>
            <th>Mode</th>
            <th>Model</th>
            <th>Tools</th>
            <th>Source</th>
          </tr>
        </thead>
        <tbody>
          {list.map((a) => (
            <Fragment key={a.name}>
              <tr data-testid="settings-agent-row" data-agent={a.name} className="agent-row" onClick={() => toggle(a.name)} title="Show its permission rules and warnings">
                <td>
                  <span className="agent-dot" style={{ background: agentColor(a.name, a) }} /> {a.name}
                  {a.displayName && <span className="muted small"> ({a.displayName})</span>}
                  {a.hidden && <span className="muted small"> (hidden)</span>}
                  {a.warnings.length > 0 && (
                    <span className="badge waiting agent-warning-count" data-testid="agent-warning-count">
                      ⚠ {a.warnings.length}
                    </span>
                  )}
                  <div className="muted small">{a.description}</div>
                </td>
                <td>{a.mode}</td>
                <td className="small" data-testid="agent-model" title={a.resolvedModel.detail}>
                  {a.resolvedModel.ref ?? 'inherit'}
                  {a.resolvedModel.via !== 'inherit' && a.resolvedModel.via !== 'explicit' && <div className="muted">{a.resolvedModel.spec} · {a.resolvedModel.via}</div>}
                </td>
                <td className="small mono" data-testid="agent-tools">
                  {a.offeredTools.join(', ') || '(none)'}
                </td>
                <td className="small" data-testid="agent-source">
                  {a.source.kind}
                  {a.source.format && a.source.format !== 'agentry' && ` · ${a.source.format}`}
                  {a.source.file && (
                    <div className="mono muted" title={a.source.file}>
                      {a.source.file}
                    </div>
                  )}
                </td>
              </tr>
              {open.has(a.name) && (
                <tr className="agent-details" data-testid="agent-details" data-agent={a.name}>
                  <td colSpan={5}>
                    <AgentDetails agent={a} />
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
      {disabled.length > 0 && (
        <p className="muted small" data-testid="agents-disabled">
          Disabled by their files (disable: true): {disabled.map((d) => d.name).join(', ')}
        </p>
      )}
    </section>
  )
}

function AgentDetails({ agent }: { agent: AgentListEntry }) {
  return (
    <div className="agent-details-body">
      <div className="label">Model</div>
      <div className="small">{agent.resolvedModel.detail}</div>
      {agent.warnings.length > 0 && (
        <>
          <div className="label">Warnings (the file loaded; these parts are not used as written)</div>
          <ul className="issues small" data-testid="agent-warnings">
            {agent.warnings.map((w, i) => (
              <li key={i}>
                <code>{w.field}</code>
                {w.line ? <span className="muted"> (line {w.line})</span> : null}: {w.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="label">Permission rules (the last matching rule wins)</div>
      <ul className="issues small mono" data-testid="agent-rules">
        {agent.permissionRules.map((r, i) => (
          <li key={i}>
            {r.tool} {r.pattern === '*' ? '' : `"${r.pattern}" `}→ {r.action}
          </li>
        ))}
      </ul>
      {agent.mcpTools && agent.mcpTools.length > 0 && (
        <>
          <div className="label">MCP tools named by the file (kept until MCP servers can be configured)</div>
          <div className="small mono">{agent.mcpTools.join(', ')}</div>
        </>
      )}
    </div>
  )
}
