import { useMemo, useState, type ReactNode } from 'react'
import { EDITABLE_PROVIDER_TYPES, providerDraftErrors, type FieldErrors, type ProviderDraft } from '../../../src-shared/settings-fields'
import { saveProvider, testProvider } from '../../state/settings-actions'
import type { UiError } from '../../state/ui-error'
import { ErrorNote } from '../common/error-note'

const URL_HINT: Record<string, string> = {
  anthropic: 'empty: https://api.anthropic.com',
  openai: 'empty: https://api.openai.com/v1',
  'openai-compatible': 'e.g. http://127.0.0.1:8080/v1',
  ollama: 'empty: http://127.0.0.1:11434',
}

/**
 * Adds or edits a provider: name, type, base URL and key, each checked as typed (the host runs the same checks and
 * its per-field answers land under the same fields). Test asks the provider for its model list with what is typed.
 * Saved to the person's config.yaml (comments and layout kept); the key goes to the key store, never the file.
 */
export function ProviderForm({ initial, existing, adding, onDone }: { initial: ProviderDraft; existing: string[]; adding: boolean; onDone(): void }) {
  const [draft, setDraft] = useState(initial)
  const [touched, setTouched] = useState<Record<string, true>>({})
  const [hostFields, setHostFields] = useState<FieldErrors>({})
  const [error, setError] = useState<UiError | null>(null)
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const local = useMemo(() => providerDraftErrors(draft, { existing, adding }), [draft, existing, adding])
  const shown = (f: keyof ProviderDraft) => (touched[f] ? local[f] : undefined) ?? hostFields[f]
  const prefix = adding ? 'new-provider' : `provider-${initial.name}`

  const set = (f: keyof ProviderDraft, v: string) => {
    setDraft({ ...draft, [f]: v })
    setTouched({ ...touched, [f]: true })
    setHostFields({ ...hostFields, [f]: '' })
    setTest(null)
  }
  const save = async () => {
    setTouched({ name: true, type: true, baseURL: true, key: true })
    if (Object.keys(local).length) return
    setBusy(true)
    setError(null)
    const r = await saveProvider(draft, adding)
    setBusy(false)
    if (!r.ok) {
      setHostFields(r.fields)
      setError(r.error)
      return
    }
    onDone()
  }
  const runTest = async () => {
    setBusy(true)
    setError(null)
    const r = await testProvider(draft.name.trim() || 'new', draft)
    setBusy(false)
    if (r.ok) setTest(r.data)
    else setError(r.error)
  }

  const field = (f: keyof ProviderDraft, label: string, input: ReactNode) => {
    const problem = shown(f)
    return (
      <label className="field">
        <span className="label">{label}</span>
        {input}
        {problem && (
          <span className="field-error" id={`${prefix}-${f}-error`} data-testid={`provider-field-error-${f}`}>
            {problem}
          </span>
        )}
      </label>
    )
  }
  const described = (f: keyof ProviderDraft) => (shown(f) ? { 'aria-invalid': true, 'aria-describedby': `${prefix}-${f}-error` } : {})

  return (
    <form
      className="provider-form"
      data-testid="provider-form"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <div className="grid4">
        {field(
          'name',
          'Name',
          <input className="input mono" data-testid="provider-name" value={draft.name} disabled={!adding} onChange={(e) => set('name', e.target.value)} placeholder="local" {...described('name')} />,
        )}
        {field(
          'type',
          'Type',
          <select className="input" data-testid="provider-type" value={draft.type} onChange={(e) => set('type', e.target.value)} {...described('type')}>
            {EDITABLE_PROVIDER_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>,
        )}
        {field(
          'baseURL',
          'Base URL',
          <input className="input mono" data-testid="provider-url" value={draft.baseURL} onChange={(e) => set('baseURL', e.target.value)} placeholder={URL_HINT[draft.type] ?? ''} {...described('baseURL')} />,
        )}
        {field(
          'key',
          adding ? 'API key' : 'API key (empty: keep)',
          <input
            className="input"
            type="password"
            autoComplete="off"
            data-testid="provider-key"
            value={draft.key}
            onChange={(e) => set('key', e.target.value)}
            placeholder={draft.type === 'ollama' ? 'not needed' : 'paste key'}
            {...described('key')}
          />,
        )}
      </div>
      <div className="row">
        <button className="btn primary" type="submit" disabled={busy} data-testid="provider-save">
          {adding ? 'Add provider' : 'Save'}
        </button>
        <button className="btn" type="button" disabled={busy || !!local.type || !!local.baseURL} onClick={() => void runTest()} data-testid="provider-form-test">
          Test
        </button>
        <button className="btn ghost" type="button" onClick={onDone}>
          Cancel
        </button>
        {test && (
          <span className={`provider-test ${test.ok ? 'ok' : 'err'}`} data-testid="provider-test-result" role="status">
            {test.ok ? '✓' : '✕'} {test.message}
          </span>
        )}
      </div>
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} />}
    </form>
  )
}
