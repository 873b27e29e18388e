import { useEffect } from 'react'
import { useSettings } from '../state/settings-store'
import { useUi } from '../state/ui-store'
import { loadAgents, loadSettings } from '../state/workspace-actions'
import { ErrorNote } from './error-note'
import { AgentsSection } from './settings-agents'
import { ModelAndLimits, ProvidersSection } from './settings-providers'
import { RulesSection } from './settings-rules'
import { TrustSection } from './settings-trust'
import { SandboxSection } from './settings-sandbox'

/** Settings: providers and keys, default model, subagent limits, permission rules, agents and their load errors. */
export function SettingsView() {
  const settings = useSettings((s) => s.settings)
  const loadError = useSettings((s) => s.loadError)
  // Rules, keys and agent files change behind the screen's back (answers, file edits): refresh on every visit.
  useEffect(() => {
    void Promise.all([loadSettings(), loadAgents()])
  }, [])
  return (
    <div className="settings" data-testid="settings">
      <div className="settings-head">
        <h1>Settings</h1>
        <span className="spacer" />
        <button className="btn ghost" onClick={() => void Promise.all([loadSettings(), loadAgents()])}>
          Refresh
        </button>
        <button className="btn" data-testid="close-settings" onClick={() => useUi.setState({ screen: 'chat' })}>
          Done
        </button>
      </div>
      {loadError && <ErrorNote error={loadError} />}
      {settings && (
        <>
          {settings.configIssues.length > 0 && (
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
          )}
          <ProvidersSection settings={settings} />
          <ModelAndLimits settings={settings} />
          <SandboxSection settings={settings} />
          <RulesSection settings={settings} />
          <TrustSection />
          <AgentsSection />
          <section className="card">
            <h2>Data</h2>
            <p className="muted small">
              Data folder <code>{settings.dataDir}</code> · config <code>{settings.configFile}</code>
            </p>
          </section>
        </>
      )}
    </div>
  )
}
