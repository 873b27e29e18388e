import { useEffect, useState } from 'react'
import { budgetDraftErrors, type BudgetDraft, type BudgetSettingKey, type CallOutput, type FieldErrors } from '../../../src-shared'
import { loadBudgets, saveBudgets } from '../../state/settings-actions'
import type { UiError } from '../../state/ui-error'
import { ErrorNote } from '../common/error-note'
import '../../styles/budget.css'

type Loaded = CallOutput<'settings.budgets'>
type Field = { key: BudgetSettingKey; label: string; hint?: string }

/** The form, group by group: what each limit bounds, in the person's words. */
const GROUPS: { title: string; note: string; fields: Field[] }[] = [
  {
    title: 'Each conversation',
    note: 'All its turns and subagents together. At the limit the run stops and asks you to extend it or stop.',
    fields: [
      { key: 'budgets.session.costUsd', label: 'Cost (USD)' },
      { key: 'budgets.session.tokens', label: 'Tokens', hint: 'e.g. 2M' },
      { key: 'budgets.dailyCostUsd', label: 'Per workspace per day (USD)' },
    ],
  },
  {
    title: 'Each subagent',
    note: 'A child and everything it starts. An agent file or a task call may ask for less, never more.',
    fields: [
      { key: 'subagents.budget.costUsd', label: 'Cost (USD)' },
      { key: 'subagents.budget.tokens', label: 'Tokens', hint: 'e.g. 200k' },
      { key: 'subagents.budget.seconds', label: 'Time (seconds)' },
      { key: 'subagents.budget.steps', label: 'Steps (model requests)' },
    ],
  },
  {
    title: 'Ask before a fan-out',
    note: 'A step that would start more subagents at once, or whose subagents’ budgets add up to more, waits for you.',
    fields: [
      { key: 'budgets.fanOut.askAboveChildren', label: 'More subagents at once than' },
      { key: 'budgets.fanOut.askAboveCostUsd', label: 'Their budgets above (USD)' },
    ],
  },
  {
    title: 'Runaway guards',
    note: 'For a model or a loop that does not stop by itself.',
    fields: [
      { key: 'runaway.maxOutputTokens', label: 'Output tokens per request' },
      { key: 'runaway.requestSeconds', label: 'Longest request (seconds)' },
      { key: 'runaway.repeatedCalls', label: 'Same tool call in a row' },
    ],
  },
]

/** Settings › Budgets: the person's own config.yaml; an empty field means no limit (or the default shown in it). */
export function BudgetsSection() {
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [draft, setDraft] = useState<Record<string, string>>({})
  const [hostFields, setHostFields] = useState<FieldErrors>({})
  const [error, setError] = useState<UiError | null>(null)
  const [saved, setSaved] = useState(false)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    void loadBudgets().then((r) => {
      if (!live) return
      if (!r.ok) return setError(r.error)
      setLoaded(r.data)
      setDraft(r.data.values)
    })
    return () => {
      live = false
    }
  }, [])

  // Only what the person changed is sent: the rest of their file stays exactly as they wrote it.
  const changes: BudgetDraft = loaded ? Object.fromEntries(Object.entries(draft).filter(([k, v]) => v.trim() !== loaded.values[k as BudgetSettingKey])) : {}
  const problems = budgetDraftErrors(changes)
  const blocked = busy || Object.keys(changes).length === 0 || Object.keys(problems).length > 0

  const save = async () => {
    if (blocked) return
    setBusy(true)
    setError(null)
    setSaved(false)
    const r = await saveBudgets(changes)
    setBusy(false)
    if (!r.ok) {
      setHostFields(r.fields)
      return setError(r.error)
    }
    setHostFields({})
    setLoaded(r.data)
    setDraft(r.data.values)
    setSaved(true)
  }

  const field = ({ key, label, hint }: Field) => {
    const problem = problems[key] ?? hostFields[key]
    const fallback = loaded?.defaults[key]
    const id = `budget-${key.replaceAll('.', '-')}`
    return (
      <label className="field" key={key}>
        <span className="label">{label}</span>
        <input
          className="input"
          inputMode="decimal"
          data-testid={id}
          value={draft[key] ?? ''}
          placeholder={fallback ? `${fallback} (default)` : `no limit${hint ? ` — ${hint}` : ''}`}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-error` : undefined}
          disabled={!loaded}
          onChange={(e) => {
            setDraft({ ...draft, [key]: e.target.value })
            setHostFields({ ...hostFields, [key]: '' })
            setSaved(false)
          }}
        />
        {problem && (
          <span className="field-error" id={`${id}-error`} data-testid={`${id}-error`}>
            {problem}
          </span>
        )}
      </label>
    )
  }

  return (
    <section className="card settings-budgets" data-testid="settings-budgets" aria-labelledby="budgets-title">
      <h2 id="budgets-title">Budgets</h2>
      <p className="muted small">
        The most agents may spend before they stop or ask you. Empty: no limit. Costs use the model price table; saved in your own <code>config.yaml</code>.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        {GROUPS.map((g) => (
          <div key={g.title} className="budget-group" role="group" aria-labelledby={`budgets-${g.fields[0].key}`}>
            <h3 id={`budgets-${g.fields[0].key}`}>{g.title}</h3>
            <p className="muted small">{g.note}</p>
            <div className="budget-grid">{g.fields.map(field)}</div>
          </div>
        ))}
        <div className="row budget-actions">
          <button className="btn" type="submit" data-testid="budgets-save" disabled={blocked}>
            {busy ? 'Saving…' : 'Save budgets'}
          </button>
          <span className="muted small" role="status" data-testid="budgets-saved">
            {saved && 'Budgets saved. New turns use them.'}
          </span>
        </div>
      </form>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}
