import { useEffect, useMemo, useState } from 'react'
import type { CallOutput } from '../../../src-shared'
import { defaultModelError, EditableProviderType, limitsErrors, type FieldErrors } from '../../../src-shared/settings-fields'
import { removeProvider, removeProviderKey, setProviderKey, testProvider, updateSettings } from '../../state/settings-actions'
import type { UiError } from '../../state/ui-error'
import { loadModels, modelChoices, pickerProviders, useModels } from '../../state/models-store'
import { useSettings } from '../../state/settings-store'
import { ErrorNote } from '../common/error-note'
import { ProviderForm } from './provider-form'

type Settings = CallOutput<'settings.get'>
type Provider = Settings['providers'][number]

const KEY_SOURCE: Record<Provider['keySource'], string> = {
  config: 'key in config file',
  env: 'key from environment',
  store: 'key saved in the app',
  none: 'no key',
  not_needed: 'no key needed',
}

export function ProvidersSection({ settings }: { settings: Settings }) {
  const [adding, setAdding] = useState(false)
  const names = settings.providers.map((p) => p.name)
  return (
    <section className="card" data-testid="settings-providers">
      <div className="row">
        <h2>Providers</h2>
        <span className="spacer" />
        {!adding && (
          <button className="btn" data-testid="provider-add" onClick={() => setAdding(true)}>
            Add provider
          </button>
        )}
      </div>
      <p className="muted small">
        Saved to <code>{settings.configFile}</code> (your comments and layout are kept). Keys are stored by the host, never in that file, and never
        shown again.
      </p>
      {adding && <ProviderForm initial={{ name: '', type: 'openai-compatible', baseURL: '', key: '' }} existing={names} adding onDone={() => setAdding(false)} />}
      <div className="provider-list">
        {settings.providers.map((p) => (
          <ProviderRow key={p.name} provider={p} names={names} />
        ))}
        {settings.providers.length === 0 && <div className="muted">No providers yet — the built-in offline models (demo, script) need no key.</div>}
      </div>
    </section>
  )
}

function ProviderRow({ provider: p, names }: { provider: Provider; names: string[] }) {
  const [key, setKey] = useState('')
  const [error, setError] = useState<UiError | null>(null)
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const needsKey = p.keySource !== 'not_needed'
  // A provider only a workspace defines is not in the person's config.yaml: nothing to edit or remove there.
  const own = !p.workspace || p.workspace.redefined
  const editable = own && EditableProviderType.safeParse(p.type).success

  const run = async (what: 'set' | 'remove' | 'test' | 'delete') => {
    setBusy(true)
    setError(null)
    if (what === 'test') {
      const r = await testProvider(p.name)
      if (r.ok) setTest(r.data)
      else setError(r.error)
    } else {
      const failed = what === 'set' ? await setProviderKey(p.name, key) : what === 'remove' ? await removeProviderKey(p.name) : await removeProvider(p.name)
      if (failed) setError(failed)
      else {
        setKey('')
        setTest(null)
      }
    }
    setConfirming(false)
    setBusy(false)
  }

  if (editing) {
    return (
      <div className="provider-row" data-testid="provider-row" data-provider={p.name}>
        <ProviderForm initial={{ name: p.name, type: p.type, baseURL: p.baseURL ?? '', key: '' }} existing={names} adding={false} onDone={() => setEditing(false)} />
      </div>
    )
  }
  return (
    <div className="provider-row" data-testid="provider-row" data-provider={p.name}>
      <div className="provider-name">
        <strong>{p.name}</strong> <span className="muted small">{p.type}</span>
        {p.baseURL && <div className="mono muted small">{p.baseURL}</div>}
        {p.workspace && (
          <div className="small" data-testid="provider-workspace" title={p.workspace.file}>
            <span className="pill warn">{p.workspace.redefined ? 'redefined by the workspace' : 'defined by the workspace'}</span>
            {p.workspace.keysWithheld && <div className="muted">{p.workspace.keysWithheld}</div>}
          </div>
        )}
      </div>
      <span className={`pill ${p.hasKey || !needsKey ? 'ok' : 'warn'}`} data-testid="provider-key-status">{KEY_SOURCE[p.keySource]}</span>
      {needsKey && (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault()
            if (key) void run('set')
          }}
        >
          <input
            className="input"
            type="password"
            autoComplete="off"
            placeholder={p.hasKey ? 'Replace key' : 'Paste API key'}
            data-testid="provider-key-input"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
          <button className="btn" type="submit" disabled={!key || busy} data-testid="provider-key-save">
            Save
          </button>
        </form>
      )}
      <button className="btn" disabled={busy} onClick={() => void run('test')} data-testid="provider-test">
        Test
      </button>
      {editable && (
        <button className="btn" disabled={busy} onClick={() => setEditing(true)} data-testid="provider-edit">
          Edit
        </button>
      )}
      {own &&
        (confirming ? (
          <span className="row">
            <span className="small">Remove {p.name} and its saved key?</span>
            <button className="btn danger" disabled={busy} onClick={() => void run('delete')} data-testid="provider-remove-confirm">
              Remove
            </button>
            <button className="btn ghost" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button className="btn ghost" disabled={busy} onClick={() => setConfirming(true)} data-testid="provider-remove">
            Remove provider
          </button>
        ))}
      {p.keySource === 'store' && (
        <button className="btn danger" disabled={busy} onClick={() => void run('remove')} data-testid="provider-key-remove">
          Remove key
        </button>
      )}
      {test && (
        <div className={`provider-test ${test.ok ? 'ok' : 'err'}`} data-testid="provider-test-result">
          {test.ok ? '✓' : '✕'} {test.message}
        </div>
      )}
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </div>
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

/** Default model, small model and subagent limits, each field checked as typed (the host's per-field answers land there too). */
export function ModelAndLimits({ settings }: { settings: Settings }) {
  const [model, setModel] = useState(settings.defaultModel)
  const [small, setSmall] = useState(settings.smallModel ?? '')
  const [limits, setLimits] = useState<Record<keyof Limits, string>>(() => limitStrings(settings.subagents))
  const [hostFields, setHostFields] = useState<FieldErrors>({})
  const [error, setError] = useState<UiError | null>(null)
  // Which form the last save was, so its "saved" shows beside its own button (not beside Save limits).
  const [saved, setSaved] = useState<{ what: 'model' | 'small' | 'limits'; text: string } | null>(null)
  const providers = settings.providers.map((p) => p.name)
  const modelError = model.trim() === settings.defaultModel ? null : defaultModelError(model, providers)
  // Empty means "no small model": the helpers go back to the session's model.
  const smallError = small.trim() === '' || small.trim() === (settings.smallModel ?? '') ? null : defaultModelError(small, providers)
  const limitErrors = limitsErrors(limits)

  const SAVES = {
    model: { blocked: !!modelError, patch: () => ({ model: model.trim() }), doing: 'Saving the default model', done: 'Default model saved.' },
    small: { blocked: !!smallError, patch: () => ({ smallModel: small.trim() || null }), doing: 'Saving the small model', done: 'Small model saved.' },
    limits: {
      blocked: Object.keys(limitErrors).length > 0,
      patch: () => ({ subagents: Object.fromEntries(Object.entries(limits).map(([k, v]) => [k, Number(v)])) }),
      doing: 'Saving the subagent limits',
      done: 'Limits saved.',
    },
  }
  const save = async (what: keyof typeof SAVES) => {
    setError(null)
    setSaved(null)
    if (SAVES[what].blocked) return
    const r = await updateSettings(SAVES[what].patch(), SAVES[what].doing)
    if (!r.ok) {
      setHostFields(r.fields)
      setError(r.error)
      return
    }
    setHostFields({})
    setSaved({ what, text: SAVES[what].done })
  }
  const problemOf = (k: keyof Limits) => limitErrors[k] ?? hostFields[`subagents.${k}`]
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

  return (
    <section className="card" data-testid="settings-model">
      <h2>Default model</h2>
      <ModelForm
        testId="default-model"
        label="Default model"
        value={model}
        problem={modelError ?? hostFields.model}
        onChange={(v) => {
          setModel(v)
          setHostFields({ ...hostFields, model: '' })
        }}
        onSave={() => void save('model')}
        placeholder="provider/model"
        saved={saved?.what === 'model' ? saved.text : null}
      />
      <h2>Small model</h2>
      <p className="muted small">Writes session titles, summaries and compactions. Empty: they use the session&apos;s model.</p>
      <ModelForm
        testId="small-model"
        label="Small model"
        value={small}
        problem={smallError ?? hostFields.smallModel}
        onChange={(v) => {
          setSmall(v)
          setHostFields({ ...hostFields, smallModel: '' })
        }}
        onSave={() => void save('small')}
        placeholder="provider/model (optional)"
        saved={saved?.what === 'small' ? saved.text : null}
      />
      <h2>Subagent limits</h2>
      <div className="grid4">{LIMIT_FIELDS.map(([k, label]) => field(k, label))}</div>
      <div className="row">
        <button className="btn" data-testid="limits-save" disabled={SAVES.limits.blocked} onClick={() => void save('limits')}>
          Save limits
        </button>
        {saved?.what === 'limits' && (
          <span className="muted small" role="status" data-testid="limits-saved">
            {saved.text}
          </span>
        )}
      </div>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
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
          className="input mono"
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
