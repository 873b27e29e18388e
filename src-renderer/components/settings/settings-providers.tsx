import { useState } from 'react'
import type { CallOutput } from '../../../src-shared'
import { EditableProviderType } from '../../../src-shared/settings-fields'
import { removeProvider, removeProviderKey, setProviderKey, testProvider } from '../../state/settings-actions'
import type { UiError } from '../../state/ui-error'
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
      <div className="provider-actions">
        {needsKey && (
          <form
            className="row provider-key-form"
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
              aria-label={`API key for ${p.name}`}
              data-testid="provider-key-input"
              value={key}
              onChange={(e) => setKey(e.target.value)}
            />
            <button className="btn" type="submit" disabled={!key || busy} data-testid="provider-key-save">
              Save key
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
      </div>
      {test && (
        <div className={`provider-test ${test.ok ? 'ok' : 'err'}`} data-testid="provider-test-result">
          {test.ok ? '✓' : '✕'} {test.message}
        </div>
      )}
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </div>
  )
}
