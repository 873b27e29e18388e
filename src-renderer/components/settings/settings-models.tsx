import { useEffect, useMemo, useState } from 'react'
import type { CallInput, CallOutput } from '../../../src-shared'
import { defaultModelError, limitsErrors, type FieldErrors } from '../../../src-shared/settings-fields'
import { loadModels, modelChoices, pickerProviders, useModels } from '../../state/models-store'
import { updateSettings } from '../../state/settings-actions'
import { useSettings } from '../../state/settings-store'
import type { UiError } from '../../state/ui-error'
import { ErrorNote } from '../common/error-note'

type Settings = CallOutput<'settings.get'>

/**
 * One card's save: the host's per-field answers, a failure, and the "saved" note beside the card's own Save button.
 * Each card saves only its own setting.
 */
function useSave(doing: string, done: string) {
  const [hostFields, setHostFields] = useState<FieldErrors>({})
  const [error, setError] = useState<UiError | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const save = async (patch: CallInput<'settings.update'>) => {
    setError(null)
    setSaved(null)
    const r = await updateSettings(patch, doing)
    if (!r.ok) {
      setHostFields(r.fields)
      setError(r.error)
      return
    }
    setHostFields({})
    setSaved(done)
  }
  const note = error && <ErrorNote error={error} onDismiss={() => setError(null)} />
  return { hostFields, setHostFields, saved, save, note }
}

/** The model new conversations start on. */
export function DefaultModelCard({ settings }: { settings: Settings }) {
  const [model, setModel] = useState(settings.defaultModel)
  const s = useSave('Saving the default model', 'Default model saved.')
  const problem = model.trim() === settings.defaultModel ? null : defaultModelError(model, settings.providers.map((p) => p.name))
  return (
    <section className="card" data-testid="settings-model" aria-labelledby="default-model-title">
      <h2 id="default-model-title">Default model</h2>
      <p className="muted small">New conversations start on it; the model picker changes it for one conversation.</p>
      <ModelForm
        testId="default-model"
        label="Default model"
        value={model}
        problem={problem ?? s.hostFields.model}
        onChange={(v) => {
          setModel(v)
          s.setHostFields({ ...s.hostFields, model: '' })
        }}
        onSave={() => void (problem ? undefined : s.save({ model: model.trim() }))}
        placeholder="provider/model"
        saved={s.saved}
      />
      {s.note}
    </section>
  )
}

/** The helper agents' model: titles, summaries, compactions. */
export function SmallModelCard({ settings }: { settings: Settings }) {
  const [small, setSmall] = useState(settings.smallModel ?? '')
  const s = useSave('Saving the small model', 'Small model saved.')
  // Empty means "no small model": the helpers go back to the session's model.
  const problem = small.trim() === '' || small.trim() === (settings.smallModel ?? '') ? null : defaultModelError(small, settings.providers.map((p) => p.name))
  return (
    <section className="card" data-testid="settings-small-model" aria-labelledby="small-model-title">
      <h2 id="small-model-title">Small model</h2>
      <p className="muted small">Writes session titles, summaries and compactions. Empty: they use the session&apos;s model.</p>
      <ModelForm
        testId="small-model"
        label="Small model"
        value={small}
        problem={problem ?? s.hostFields.smallModel}
        onChange={(v) => {
          setSmall(v)
          s.setHostFields({ ...s.hostFields, smallModel: '' })
        }}
        onSave={() => void (problem ? undefined : s.save({ smallModel: small.trim() || null }))}
        placeholder="provider/model (optional)"
        saved={s.saved}
      />
      {s.note}
    </section>
  )
}

// The tool policy (subagents.tools) is edited in config.yaml, and each child's budget under Budgets: these are the numeric limits.
type Limits = Omit<Settings['subagents'], 'tools' | 'budget'>
const LIMIT_FIELDS: [keyof Limits, string][] = [
  ['maxDepth', 'Max depth'],
  ['maxConcurrent', 'Max concurrent per session'],
  ['timeoutSeconds', 'Timeout (seconds)'],
  ['archiveAfterMinutes', 'Archive after (minutes)'],
]

/** Subagent limits, each field checked as typed (the host's per-field answers land there too). */
export function SubagentLimitsCard({ settings }: { settings: Settings }) {
  const [limits, setLimits] = useState<Record<keyof Limits, string>>(() => limitStrings(settings.subagents))
  const s = useSave('Saving the subagent limits', 'Limits saved.')
  const limitErrors = limitsErrors(limits)
  const blocked = Object.keys(limitErrors).length > 0
  const problemOf = (k: keyof Limits) => limitErrors[k] ?? s.hostFields[`subagents.${k}`]
  const field = (k: keyof Limits, label: string) => (
    <label className="field" key={k}>
      <span className="label">{label}</span>
      <input
        className="input"
        type="number"
        data-testid={`limit-${k}`}
        value={limits[k]}
        aria-invalid={problemOf(k) ? true : undefined}
        aria-describedby={problemOf(k) ? `limit-${k}-error` : undefined}
        onChange={(e) => setLimits({ ...limits, [k]: e.target.value })}
      />
      {problemOf(k) && (
        <span className="field-error" id={`limit-${k}-error`} data-testid={`limit-error-${k}`}>
          {problemOf(k)}
        </span>
      )}
    </label>
  )
  const save = () => {
    if (!blocked) void s.save({ subagents: Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, Number(v)])) })
  }
  return (
    <section className="card" data-testid="settings-limits" aria-labelledby="limits-title">
      <h2 id="limits-title">Subagent limits</h2>
      <p className="muted small">How deep agents may start agents, how many run at once, and how long one may take.</p>
      <div className="grid4">{LIMIT_FIELDS.map(([k, label]) => field(k, label))}</div>
      <div className="row">
        <button className="btn" data-testid="limits-save" disabled={blocked} onClick={save}>
          Save limits
        </button>
        {s.saved && (
          <span className="muted small" role="status" data-testid="limits-saved">
            {s.saved}
          </span>
        )}
      </div>
      {s.note}
    </section>
  )
}

/** One `provider/model` setting with its Save button (Enter saves too) and what is wrong with it, as typed. */
function ModelForm(p: { testId: string; label: string; value: string; placeholder: string; problem?: string | null; saved?: string | null; onChange(v: string): void; onSave(): void }) {
  const problem = p.problem || null
  // The models the providers list, offered as the field is typed in (any provider/model can still be typed).
  const lists = useModels((s) => s.lists)
  // A provider added a moment ago is listed too (its models are fetched once it appears).
  const providerKey = useSettings((s) => (s.settings?.providers ?? []).map((x) => x.name).join('\n'))
  const choices = useMemo(() => modelChoices('', lists, pickerProviders()), [lists, providerKey])
  useEffect(() => {
    for (const provider of pickerProviders()) void loadModels(provider)
  }, [providerKey])
  return (
    <>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault()
          p.onSave()
        }}
      >
        <input
          className="input mono model-field"
          data-testid={p.testId}
          aria-label={p.label}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${p.testId}-error` : undefined}
          value={p.value}
          onChange={(e) => p.onChange(e.target.value)}
          placeholder={p.placeholder}
          list={`${p.testId}-choices`}
          autoComplete="off"
        />
        <datalist id={`${p.testId}-choices`} data-testid={`${p.testId}-choices`}>
          {choices.map((c) => (
            <option key={c.model} value={c.model}>
              {c.detail ?? c.provider}
            </option>
          ))}
        </datalist>
        <button className="btn" type="submit" data-testid={`${p.testId}-save`} disabled={!!problem}>
          Save
        </button>
        {p.saved && (
          <span className="muted small" role="status" data-testid={`${p.testId}-saved`}>
            {p.saved}
          </span>
        )}
      </form>
      {problem && (
        <div className="field-error" id={`${p.testId}-error`} data-testid={`${p.testId}-error`}>
          {problem}
        </div>
      )}
    </>
  )
}

function limitStrings(l: Limits): Record<keyof Limits, string> {
  return { maxDepth: String(l.maxDepth), maxConcurrent: String(l.maxConcurrent), timeoutSeconds: String(l.timeoutSeconds), archiveAfterMinutes: String(l.archiveAfterMinutes) }
}
