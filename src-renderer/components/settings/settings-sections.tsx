import type { ComponentType } from 'react'
import type { CallOutput } from '../../../src-shared'
import { NotificationsSection } from '../inbox/notify-prompt'
import { AgentsSection } from './settings-agents'
import { AppearanceSection } from './settings-appearance'
import { BudgetsSection } from './settings-budgets'
import { CheckpointsSection } from './settings-checkpoints'
import { CommandsSection } from './settings-commands'
import { HooksSection } from './settings-hooks'
import { McpSection } from './settings-mcp'
import { DefaultModelCard, SmallModelCard, SubagentLimitsCard } from './settings-models'
import { ProvidersSection } from './settings-providers'
import { GrantsSection, RulesSection } from './settings-rules'
import { SandboxSection } from './settings-sandbox'
import { ContainersSection } from './settings-containers'
import { SkillsSection } from './settings-skills'
import { TrustSection } from './settings-trust'

export type Settings = CallOutput<'settings.get'>
type Card = { id: string; Card: ComponentType<{ settings: Settings }> }

/**
 * Settings, section by section: what the navigation lists, one section shown at a time. Each card's `id` is what
 * `openSettings(id)` names (its `data-testid` is `settings-<id>`): the section holding it opens. A new area adds its
 * card to a section here and nothing else.
 */
export const SECTIONS: { id: string; label: string; cards: Card[] }[] = [
  {
    id: 'models',
    label: 'Providers & models',
    cards: [
      { id: 'providers', Card: ProvidersSection },
      { id: 'model', Card: DefaultModelCard },
      { id: 'small-model', Card: SmallModelCard },
      { id: 'limits', Card: SubagentLimitsCard },
    ],
  },
  { id: 'agents', label: 'Agents', cards: [{ id: 'agents', Card: AgentsSection }] },
  {
    id: 'permissions',
    label: 'Permissions',
    cards: [
      { id: 'grants', Card: GrantsSection },
      { id: 'rules', Card: RulesSection },
    ],
  },
  {
    id: 'sandbox',
    label: 'Sandbox & trust',
    cards: [
      { id: 'sandbox', Card: SandboxSection },
      { id: 'containers', Card: ContainersSection },
      { id: 'trust', Card: TrustSection },
    ],
  },
  { id: 'budgets', label: 'Budgets', cards: [{ id: 'budgets', Card: BudgetsSection }] },
  { id: 'mcp', label: 'MCP servers', cards: [{ id: 'mcp', Card: McpSection }] },
  {
    id: 'skills',
    label: 'Skills & commands',
    cards: [
      { id: 'skills', Card: SkillsSection },
      { id: 'commands', Card: CommandsSection },
    ],
  },
  { id: 'hooks', label: 'Hooks', cards: [{ id: 'hooks', Card: HooksSection }] },
  {
    id: 'checkpoints',
    label: 'Checkpoints & data',
    cards: [
      { id: 'checkpoints', Card: CheckpointsSection },
      { id: 'data', Card: DataSection },
    ],
  },
  {
    id: 'appearance',
    label: 'Appearance & alerts',
    cards: [
      { id: 'appearance', Card: AppearanceSection },
      { id: 'notifications', Card: NotificationsSection },
    ],
  },
]

/** The section a card (or a section) id belongs to; the first section when nothing matches. */
export function sectionOf(id: string | null): (typeof SECTIONS)[number] {
  return SECTIONS.find((s) => s.id === id) ?? SECTIONS.find((s) => s.cards.some((c) => c.id === id)) ?? SECTIONS[0]
}

function DataSection({ settings }: { settings: Settings }) {
  return (
    <section className="card" data-testid="settings-data">
      <h2>Data</h2>
      <p className="muted small">
        Data folder <code>{settings.dataDir}</code> · config <code>{settings.configFile}</code>
      </p>
    </section>
  )
}
