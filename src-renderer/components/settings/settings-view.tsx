import { useEffect, type ComponentType } from 'react'
import type { CallOutput } from '../../../src-shared'
import { useSettings } from '../../state/settings-store'
import { useUi } from '../../state/ui-store'
import { loadAgents, loadSettings } from '../../state/workspace-actions'
import { ErrorNote } from '../common/error-note'
import { AgentsSection } from './settings-agents'
import { SkillsSection } from './settings-skills'
import { CommandsSection } from './settings-commands'
import { HooksSection } from './settings-hooks'
import { ModelAndLimits, ProvidersSection } from './settings-providers'
import { RulesSection } from './settings-rules'
import { TrustSection } from './settings-trust'
import { McpSection } from './settings-mcp'
import { SandboxSection } from './settings-sandbox'
import { CheckpointsSection } from './settings-checkpoints'
import { BudgetsSection } from './settings-budgets'
import { NotificationsSection } from '../inbox/notify-prompt'
import { AppearanceSection } from './settings-appearance'

/** Settings: providers and keys, default model, subagent limits, permission rules, trust, MCP servers, agents and their load errors, checkpoints, budgets. */
export function SettingsView() {
  const settings = useSettings((s) => s.settings)
  const loadError = useSettings((s) => s.loadError)
  const version = useSettings((s) => s.version)
  // Rules, keys and agent files change behind the screen's back (answers, file edits): refresh on every visit.
  useEffect(() => {
    void Promise.all([loadSettings({ reseed: 'if-changed' }), loadAgents()])
  }, [])
  // Opened from a link (an error card's "Settings › Providers"): that section, once it is drawn.
  const focus = useUi((s) => s.settingsFocus)
  useEffect(() => {
    if (!focus || !settings) return
    const el = document.querySelector<HTMLElement>(`[data-testid="settings-${focus}"]`)
    if (!el) return
    el.scrollIntoView({ block: 'start' })
    el.querySelector<HTMLElement>('h2')?.setAttribute('tabindex', '-1')
    el.querySelector<HTMLElement>('h2')?.focus()
    useUi.setState({ settingsFocus: null })
  }, [focus, settings])
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
      {loadError && <ErrorNote error={loadError} />}
      {settings && SECTIONS.map(({ id, Section }) => <Section key={`${id}:${version}`} settings={settings} />)}
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
  { id: 'sandbox', Section: SandboxSection },
  { id: 'rules', Section: RulesSection },
  { id: 'trust', Section: TrustSection },
  { id: 'mcp', Section: McpSection },
  { id: 'agents', Section: AgentsSection },
  { id: 'skills', Section: SkillsSection },
  { id: 'commands', Section: CommandsSection },
  { id: 'hooks', Section: HooksSection },
  { id: 'checkpoints', Section: CheckpointsSection },
  { id: 'budgets', Section: BudgetsSection },
  { id: 'notifications', Section: NotificationsSection },
  { id: 'appearance', Section: AppearanceSection },
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
