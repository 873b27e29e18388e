import { useEffect, useState, type ComponentType } from 'react'
import type { CallOutput } from '../../src-shared'
import { agentColor, useAgents } from '../state/agents-store'
import { useSettings } from '../state/settings-store'
import { useUi } from '../state/ui-store'
import { loadAgents, loadSettings } from '../state/workspace-actions'
import { ErrorNote } from './error-note'
import { ModelAndLimits, ProvidersSection } from './settings-providers'
import { RulesSection } from './settings-rules'

/** Settings: providers and keys, default model, subagent limits, permission rules, agents and their load errors. */
export function SettingsView() {
  const settings = useSettings((s) => s.settings)
  const loadError = useSettings((s) => s.loadError)
  // Rules, keys and agent files change behind the screen's back (answers, file edits): refresh on every visit.
  useEffect(() => {
    void Promise.all([loadSettings(), loadAgents()])
  }, [])
  return (
    <section className="settings" data-testid="settings" aria-labelledby="settings-title">
      <div className="settings-head">
        <h1 id="settings-title">Settings</h1>
        <span className="spacer" />
        <button className="btn ghost" onClick={() => void Promise.all([loadSettings(), loadAgents()])}>
          Refresh
        </button>
        <button className="btn" data-testid="close-settings" onClick={() => useUi.setState({ screen: 'chat' })}>
          Done
        </button>
      </div>
      {loadError && <ErrorNote error={loadError} />}
      {settings && SECTIONS.map(({ id, Section }) => <Section key={id} settings={settings} />)}
    </section>
  )
}

type Settings = CallOutput<'settings.get'>

/**
 * Settings is this list of sections, top to bottom; each receives the loaded settings. A new area adds its
 * component here and nothing else.
 */
const SECTIONS: { id: string; Section: ComponentType<{ settings: Settings }> }[] = [
  { id: 'config-issues', Section: ConfigIssues },
  { id: 'providers', Section: ProvidersSection },
  { id: 'model', Section: ModelAndLimits },
  { id: 'rules', Section: RulesSection },
  { id: 'agents', Section: AgentsSection },
  { id: 'data', Section: DataSection },
]

function ConfigIssues({ settings }: { settings: Settings }) {
  if (settings.configIssues.length === 0) return null
  return (
    <section className="card">
      <h2>Configuration problems</h2>
      <ul className="issues" data-testid="config-issues">
        {settings.configIssues.map((c, i) => (
          <li key={i}>
            <code>{c.file}</code> › <code>{c.path || '(root)'}</code>: {c.reason}
          </li>
        ))}
      </ul>
      <p className="muted small">Fix these in the file named; the rest of the configuration is in use.</p>
    </section>
  )
}

function DataSection({ settings }: { settings: Settings }) {
  return (
    <section className="card">
      <h2>Data</h2>
      <p className="muted small">
        Data folder <code>{settings.dataDir}</code> · config <code>{settings.configFile}</code>
      </p>
    </section>
  )
}

function AgentsSection() {
  const agents = useAgents((s) => s.agents)
  const errors = useAgents((s) => s.errors)
  const loadError = useAgents((s) => s.loadError)
  const [showHidden, setShowHidden] = useState(false)
  const list = agents.filter((a) => showHidden || !a.hidden)
  return (
    <section className="card" data-testid="settings-agents">
      <div className="card-head">
        <h2>Agents</h2>
        <label className="check small">
          <input type="checkbox" checked={showHidden} onChange={(e) => setShowHidden(e.target.checked)} /> show hidden
        </label>
      </div>
      {loadError && <ErrorNote error={loadError} />}
      {errors.length > 0 && (
        <div className="load-errors" data-testid="agent-load-errors">
          <div className="label">Agent files that could not be loaded (skipped until fixed)</div>
          {errors.map((e, i) => (
            <div key={i} className="callout error" data-testid="agent-load-error">
              <code>{e.file}</code>
              <div>
                field <code>{e.field || '(file)'}</code>: {e.reason}
              </div>
            </div>
          ))}
        </div>
      )}
      <table className="table">
        <thead>
          <tr>
            <th>Agent</th>
            <th>Mode</th>
            <th>Description</th>
            <th>Source</th>
          </tr>
        </thead>
        <tbody>
          {list.map((a) => (
            <tr key={a.name} data-testid="settings-agent-row" data-agent={a.name}>
              <td>
                <span className="agent-dot" style={{ background: agentColor(a.name, a) }} /> {a.name}
                {a.hidden && <span className="muted small"> (hidden)</span>}
              </td>
              <td>{a.mode}</td>
              <td className="muted">{a.description}</td>
              <td className="small">
                {a.source.kind}
                {a.source.file && (
                  <div className="mono muted" title={a.source.file}>
                    {a.source.file}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
