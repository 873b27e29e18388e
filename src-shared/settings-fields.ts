import { z } from 'zod'
import { lazy } from './lazy'
import { Config, SubagentLimits } from './config'
import { parseAmount } from './budget-text'
import { describeZodIssues } from './zod-issues'

/**
 * Per-field checks of what Settings sends, shared by the renderer (inline, as the person types) and the host (the
 * same rules, so a message from the host names the same field). A field name → what is wrong with it.
 */
export type FieldErrors = Record<string, string>

/** Provider types a person adds in Settings (`script` and `demo` are for tests and the built-in demo). */
export const EDITABLE_PROVIDER_TYPES = ['anthropic', 'openai', 'openai-compatible', 'ollama'] as const
export const EditableProviderType = lazy(() => z.enum(EDITABLE_PROVIDER_TYPES))
export type EditableProviderType = z.infer<typeof EditableProviderType>

/** Names that already mean a built-in model source: a provider of that name would shadow it. */
const RESERVED_PROVIDER_NAMES = new Set(['demo', 'script'])
export const PROVIDER_NAME_RE = /^[a-zA-Z0-9_-]+$/
export const MODEL_REF_RE = /^[^/\s]+\/\S+$/

/** A provider as the Settings form edits it: every field a string, as typed. */
export const ProviderDraft = lazy(() =>
  z
    .object({
      name: z.string().max(100),
      type: z.string().max(40),
      /** empty: the type's default endpoint */
      baseURL: z.string().max(2000),
      /** empty: keep the key as it is (a new provider then has none) */
      key: z.string().max(4096),
    })
    .strict()
)
export type ProviderDraft = z.infer<typeof ProviderDraft>

export function providerDraftErrors(d: ProviderDraft, o: { existing: readonly string[]; adding: boolean }): FieldErrors {
  const errors: FieldErrors = {}
  const name = d.name.trim()
  if (!name) errors.name = 'Give the provider a name, e.g. "local" or "openrouter".'
  else if (!PROVIDER_NAME_RE.test(name)) errors.name = 'Use letters, digits, "-" and "_" only.'
  else if (RESERVED_PROVIDER_NAMES.has(name)) errors.name = `"${name}" is the built-in ${name} model; pick another name.`
  else if (o.adding && o.existing.includes(name)) errors.name = `A provider named "${name}" exists already; edit it instead.`
  if (!EditableProviderType.safeParse(d.type).success) errors.type = `Pick one of: ${EDITABLE_PROVIDER_TYPES.join(', ')}.`
  const url = d.baseURL.trim()
  if (url) {
    let parsed: URL | undefined
    try {
      parsed = new URL(url)
    } catch {
      errors.baseURL = 'Not a URL; write it in full, e.g. http://127.0.0.1:8080/v1.'
    }
    if (parsed && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') errors.baseURL = 'Use an http:// or https:// URL.'
  } else if (d.type === 'openai-compatible') errors.baseURL = 'An openai-compatible provider needs its base URL (usually ending in /v1).'
  if (/\s/.test(d.key.trim())) errors.key = 'A key has no spaces; paste it again.'
  return errors
}

/** The provider entry a draft becomes in config.yaml (the key goes to the key store, never into the file). */
export function providerEntryOf(d: ProviderDraft): { type: EditableProviderType; baseURL?: string } {
  const type = EditableProviderType.parse(d.type)
  const baseURL = d.baseURL.trim()
  return baseURL ? { type, baseURL } : { type }
}

/** Subagent limits as typed (numbers or text): the problems of each field. */
export function limitsErrors(limits: Record<string, unknown>): FieldErrors {
  const candidate = Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, typeof v === 'string' && v.trim() !== '' ? Number(v) : v]))
  const r = SubagentLimits.partial().safeParse(candidate)
  if (r.success) return {}
  const errors: FieldErrors = {}
  for (const p of describeZodIssues(r.error.issues, candidate, SubagentLimits, { echoValues: false })) {
    const field = String(p.segments[0] ?? '')
    errors[field] ??= sentence(p.reason)
  }
  return errors
}

/**
 * The default model: `provider/model`, with a provider that exists (`providers` are the configured names; the
 * built-in `demo` always exists).
 */
export function defaultModelError(model: string, providers: readonly string[]): string | null {
  const m = model.trim()
  if (!MODEL_REF_RE.test(m)) return 'Write it as provider/model, e.g. anthropic/claude-sonnet-4-5.'
  const provider = m.slice(0, m.indexOf('/'))
  if (provider !== 'demo' && provider !== 'script' && !providers.includes(provider)) {
    return `There is no provider "${provider}". Add it under Providers first, or use one of: ${[...providers, 'demo'].join(', ')}.`
  }
  return null
}

function sentence(reason: string): string {
  const s = reason.charAt(0).toUpperCase() + reason.slice(1)
  return s.endsWith('.') ? s : `${s}.`
}

/**
 * Settings › Budgets: each setting by its place in config.yaml. They live in the person's own file only (a workspace
 * file may lower `subagents.budget`, never raise it), and an empty field removes the setting: no limit, or the default.
 */
export const BUDGET_SETTING_KEYS = [
  'budgets.session.costUsd',
  'budgets.session.tokens',
  'budgets.dailyCostUsd',
  'budgets.fanOut.askAboveChildren',
  'budgets.fanOut.askAboveCostUsd',
  'subagents.budget.costUsd',
  'subagents.budget.tokens',
  'subagents.budget.seconds',
  'subagents.budget.steps',
  'runaway.maxOutputTokens',
  'runaway.requestSeconds',
  'runaway.repeatedCalls',
] as const
export type BudgetSettingKey = (typeof BUDGET_SETTING_KEYS)[number]
export const BudgetSettingKey = lazy(() => z.enum(BUDGET_SETTING_KEYS))

/** The Budgets form as typed: a setting → its text (`0.50`, `$2`, `200k`; empty: not set). Absent: left as it is. */
export const BudgetDraft = lazy(() => z.partialRecord(BudgetSettingKey, z.string().max(40)))
export type BudgetDraft = z.infer<typeof BudgetDraft>

/** The draft's settings as numbers (null: remove it), for config.yaml; only call it when budgetDraftErrors found none. */
export function budgetDraftValues(draft: BudgetDraft): Partial<Record<BudgetSettingKey, number | null>> {
  const out: Partial<Record<BudgetSettingKey, number | null>> = {}
  for (const key of BUDGET_SETTING_KEYS) {
    const text = draft[key]
    if (text !== undefined) out[key] = parseAmount(text) ?? null
  }
  return out
}

/** The config sections the draft's set values make (`{ budgets: { session: { costUsd: 2 } } }`), to check as config.yaml would be. */
export function budgetCandidate(values: Partial<Record<BudgetSettingKey, number | null>>): Record<string, unknown> {
  const root: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined) continue
    const segments = key.split('.')
    let at = root
    for (const s of segments.slice(0, -1)) at = (at[s] ??= {}) as Record<string, unknown>
    at[segments[segments.length - 1]] = value
  }
  return root
}

/** The Budgets form's problems, by setting: the same rules config.yaml is read with. */
export function budgetDraftErrors(draft: BudgetDraft): FieldErrors {
  const errors: FieldErrors = {}
  for (const key of BUDGET_SETTING_KEYS) {
    const text = draft[key]
    if (text !== undefined && parseAmount(text) === undefined) errors[key] = 'Write a number, e.g. 0.50 or 200k; leave it empty for no limit.'
  }
  const candidate = budgetCandidate(budgetDraftValues(Object.fromEntries(Object.entries(draft).filter(([k]) => !errors[k]))))
  const r = Config.safeParse(candidate)
  if (r.success) return errors
  for (const p of describeZodIssues(r.error.issues, candidate, Config, { echoValues: true })) errors[p.path] ??= sentence(p.reason)
  return errors
}

/** Each setting's text as a config (a file's own settings, or the defaults) holds it; '' where it says nothing. */
export function budgetDraftOf(config: unknown): Record<BudgetSettingKey, string> {
  const out = {} as Record<BudgetSettingKey, string>
  for (const key of BUDGET_SETTING_KEYS) {
    let at: unknown = config
    for (const s of key.split('.')) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[s] : undefined
    out[key] = typeof at === 'number' ? String(at) : ''
  }
  return out
}

/** What an empty field means for the settings that have a default (the rest: no limit). */
export function budgetDefaults(): Record<BudgetSettingKey, string> {
  return budgetDraftOf(Config.parse({}))
}
