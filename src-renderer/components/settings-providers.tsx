import { useState } from 'react'
import type { CallOutput } from '../../src-shared'
import { call, toUiError, type UiError } from '../state/bridge'
import { loadSettings } from '../state/workspace-actions'
import { ErrorNote } from './error-note'

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
  return (
    <section className="card" data-testid="settings-providers">
      <h2>Providers</h2>
      <p className="muted small">
        Keys are stored by the host and never shown again. To add a provider, add it under <code>providers:</code> in{' '}
        <code>{settings.configFile}</code> (for example <code>anthropic: {'{ type: anthropic }'}</code>), then set its key here.
      </p>
      <div className="provider-list">
        {settings.providers.map((p) => (
          <ProviderRow key={p.name} provider={p} />
        ))}
        {settings.providers.length === 0 && <div className="muted">No providers in the config file yet — the built-in offline models (demo, script) need no key.</div>}
      </div>
    </section>
  )
}

function ProviderRow({ provider: p }: { provider: Provider }) {
  const [key, setKey] = useState('')
  const [error, setError] = useState<UiError | null>(null)
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const needsKey = p.keySource !== 'not_needed'

  const run = async (what: 'set' | 'remove' | 'test') => {
    setBusy(true)
    setError(null)
    if (what === 'test') {
      const r = await call('providers.test', { provider: p.name })
      if (r.ok) setTest(r.data)
      else setError(toUiError(`Testing ${p.name}`, r.error))
    } else {
      const r = what === 'set' ? await call('providers.setKey', { provider: p.name, key }) : await call('providers.removeKey', { provider: p.name })
      if (r.ok) {
        setKey('')
        setTest(null)
        await loadSettings()
      } else setError(toUiError(what === 'set' ? `Saving the key for ${p.name}` : `Removing the key for ${p.name}`, r.error))
    }
    setBusy(false)
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

export function ModelAndLimits({ settings }: { settings: Settings }) {
  const [model, setModel] = useState(settings.defaultModel)
  const [small, setSmall] = useState(settings.smallModel ?? '')
  const [limits, setLimits] = useState(settings.subagents)
  const [error, setError] = useState<UiError | null>(null)
  const [saved, setSaved] = useState<string | null>(null)

  const SAVES = {
    model: { patch: () => ({ model: model.trim() }), doing: 'Saving the default model', done: 'Default model saved.' },
    // Empty means "no small model": the helpers go back to the session's model.
    small: { patch: () => ({ smallModel: small.trim() || null }), doing: 'Saving the small model', done: 'Small model saved.' },
    limits: { patch: () => ({ subagents: limits }), doing: 'Saving the subagent limits', done: 'Limits saved.' },
  }
  const save = async (what: keyof typeof SAVES) => {
    setError(null)
    setSaved(null)
    const r = await call('settings.update', SAVES[what].patch())
    if (!r.ok) return setError(toUiError(SAVES[what].doing, r.error))
    setSaved(SAVES[what].done)
    await loadSettings()
  }
  const field = (k: keyof typeof limits, label: string, step = 1) => (
    <label className="field" key={k}>
      <span className="label">{label}</span>
      <input
        className="input"
        type="number"
        step={step}
        min={0}
        data-testid={`limit-${k}`}
        value={limits[k]}
        onChange={(e) => setLimits({ ...limits, [k]: Number(e.target.value) })}
      />
    </label>
  )

  return (
    <section className="card" data-testid="settings-model">
      <h2>Default model</h2>
      <ModelForm testId="default-model" value={model} onChange={setModel} onSave={() => void save('model')} placeholder="provider/model" />
      <h2>Small model</h2>
      <p className="muted small">Writes session titles, summaries and compactions. Empty: they use the session&apos;s model.</p>
      <ModelForm testId="small-model" value={small} onChange={setSmall} onSave={() => void save('small')} placeholder="provider/model (optional)" />
      <h2>Subagent limits</h2>
      <div className="grid4">
        {field('maxDepth', 'Max depth')}
        {field('maxConcurrent', 'Max concurrent per session')}
        {field('timeoutSeconds', 'Timeout (seconds)')}
        {field('archiveAfterMinutes', 'Archive after (minutes)')}
      </div>
      <div className="row">
        <button className="btn" data-testid="limits-save" onClick={() => void save('limits')}>
          Save limits
        </button>
        {saved && <span className="muted small">{saved}</span>}
      </div>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </section>
  )
}

/** One `provider/model` setting with its Save button (Enter saves too). */
function ModelForm(p: { testId: string; value: string; placeholder: string; onChange(v: string): void; onSave(): void }) {
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault()
        p.onSave()
      }}
    >
      <input className="input mono" data-testid={p.testId} value={p.value} onChange={(e) => p.onChange(e.target.value)} placeholder={p.placeholder} />
      <button className="btn" type="submit" data-testid={`${p.testId}-save`}>
        Save
      </button>
    </form>
  )
}
