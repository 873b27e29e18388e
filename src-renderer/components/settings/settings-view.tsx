import { useEffect } from 'react'
import { useSettingsNav, showSettingsSection } from '../../state/settings-nav'
import { useSettings } from '../../state/settings-store'
import { useUi } from '../../state/ui-store'
import { loadAgents, loadSettings } from '../../state/workspace-actions'
import { ErrorNote } from '../common/error-note'
import { SECTIONS, sectionOf, type Settings } from './settings-sections'
import '../../styles/settings.css'

/**
 * Settings: a navigation of sections (providers and models, agents, permissions, sandbox and trust, budgets, MCP,
 * skills and commands, hooks, checkpoints, appearance) and the one chosen, remembered across reloads. Configuration
 * problems show above every section.
 */
export function SettingsView() {
  const settings = useSettings((s) => s.settings)
  const loadError = useSettings((s) => s.loadError)
  const version = useSettings((s) => s.version)
  const section = sectionOf(useSettingsNav((s) => s.section))
  // Rules, keys and agent files change behind the screen's back (answers, file edits): refresh on every visit.
  useEffect(() => {
    void Promise.all([loadSettings({ reseed: 'if-changed' }), loadAgents()])
  }, [])
  // Opened from a link (an error card's "Settings › Providers"): the section holding that card, and the card in view.
  const focus = useUi((s) => s.settingsFocus)
  useEffect(() => {
    if (!focus) return
    if (sectionOf(focus).id !== section.id) return showSettingsSection(sectionOf(focus).id)
    if (!settings) return
    const el = document.querySelector<HTMLElement>(`[data-testid="settings-${focus}"]`)
    if (!el) return
    el.scrollIntoView({ block: 'start' })
    el.querySelector<HTMLElement>('h2')?.setAttribute('tabindex', '-1')
    el.querySelector<HTMLElement>('h2')?.focus()
    useUi.setState({ settingsFocus: null })
  }, [focus, settings, section.id])
  return (
    <section className="settings" data-testid="settings" aria-labelledby="settings-title">
      <div className="settings-head">
        <h1 id="settings-title">Settings</h1>
        <span className="spacer" />
        <button className="btn ghost" data-testid="settings-refresh" onClick={() => void Promise.all([loadSettings({ reseed: 'always' }), loadAgents()])}>
          Refresh
        </button>
        <button className="btn" data-testid="close-settings" onClick={() => useUi.setState({ screen: 'chat' })}>
          Done
        </button>
      </div>
      <div className="settings-layout">
        <nav className="settings-nav" aria-label="Settings sections" data-testid="settings-nav">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  className="settings-nav-item"
                  data-testid={`settings-nav-${s.id}`}
                  aria-current={s.id === section.id ? 'page' : undefined}
                  onClick={() => showSettingsSection(s.id)}
                >
                  {s.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <div className="settings-main" data-testid="settings-section" data-section={section.id}>
          {loadError && <ErrorNote error={loadError} />}
          {settings && <ConfigIssues settings={settings} />}
          {settings && section.cards.map(({ id, Card }) => <Card key={`${id}:${version}`} settings={settings} />)}
        </div>
      </div>
    </section>
  )
}

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
