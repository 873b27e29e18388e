import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import type { UiError } from '../../state/ui-error'
import { chooseModel, loadModels, modelChoices, pickerProviders, useCurrentModel, useModels } from '../../state/models-store'
import { useSettings } from '../../state/settings-store'
import { ErrorNote } from '../common/error-note'

/**
 * The model chip: the model the next message runs on (the open session's, switchable mid-session), and a picker
 * listing each provider's models from its own API, filterable, with free-text `provider/model` entry.
 * Keyboard: ↑/↓ or Enter opens; type to filter; ↑/↓ move; Enter chooses; Esc closes.
 */
export function ModelPicker() {
  const current = useCurrentModel()
  const [open, setOpen] = useState(false)
  const [error, setError] = useState<UiError | null>(null)
  const ref = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)

  useEffect(() => {
    if (!open) return
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false)
    }
    window.addEventListener('mousedown', close)
    return () => window.removeEventListener('mousedown', close)
  }, [open])

  const close = () => {
    setOpen(false)
    button.current?.focus()
  }
  const choose = async (model: string) => {
    close()
    setError(await chooseModel(model))
  }

  return (
    <div className="model-picker" ref={ref}>
      <button
        ref={button}
        type="button"
        className="agent-picker-btn model-picker-btn"
        data-testid="model-picker"
        data-model={current ?? ''}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={`Model: ${current ?? 'default'}. Change model`}
        title={`${current ?? 'The default model'}: the model the next message runs on`}
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault()
            setOpen(true)
          }
        }}
      >
        <ModelName model={current} />
        <span className="caret" aria-hidden>▾</span>
      </button>
      {open && <ModelMenu current={current} onChoose={(m) => void choose(m)} onClose={close} />}
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} testId="model-error" />}
    </div>
  )
}

/**
 * `provider/model` on one line. In a narrow composer the provider gives way first (styles/narrow.css), and what is
 * left is cut at its end: "claude-sonnet-4…", never "m…".
 */
function ModelName({ model }: { model: string | null }) {
  const slash = model ? model.indexOf('/') : -1
  if (!model || slash <= 0) return <span className="model-picker-name">{model ?? 'default model'}</span>
  return (
    <span className="model-picker-name">
      <span className="model-picker-provider">{model.slice(0, slash + 1)}</span>
      {model.slice(slash + 1)}
    </span>
  )
}

function ModelMenu({ current, onChoose, onClose }: { current: string | null; onChoose(model: string): void; onClose(): void }) {
  const lists = useModels((s) => s.lists)
  const settings = useSettings((s) => s.settings)
  const providers = useMemo(() => pickerProviders(), [settings])
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  const choices = useMemo(() => modelChoices(query, lists, providers), [query, lists, providers])

  useEffect(() => {
    input.current?.focus()
    for (const p of providers) void loadModels(p)
  }, [providers])
  useEffect(() => setActive(0), [query])

  const onKey = (e: KeyboardEvent) => {
    const n = choices.length
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      onClose()
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      if (n) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : n - 1)) % n)
    } else if (e.key === 'Enter') {
      e.preventDefault()
      if (choices[active]) onChoose(choices[active].model)
    }
  }

  const optionId = (i: number) => `model-option-${i}`
  return (
    <div className="popover model-menu" role="dialog" aria-label="Choose a model" data-testid="model-menu" onKeyDown={onKey}>
      <input
        ref={input}
        className="input"
        role="combobox"
        aria-expanded="true"
        aria-controls="model-options"
        aria-activedescendant={choices[active] ? optionId(active) : undefined}
        aria-label="Filter models, or type provider/model"
        placeholder="Filter, or type provider/model"
        data-testid="model-filter"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <div className="model-options" id="model-options" role="listbox" aria-label="Models">
        {choices.map((c, i) => (
          <div
            key={c.model}
            id={optionId(i)}
            role="option"
            aria-selected={c.model === current}
            className={`model-option ${i === active ? 'current' : ''}`}
            data-testid="model-option"
            data-model={c.model}
            onMouseEnter={() => setActive(i)}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => onChoose(c.model)}
          >
            <span className="model-option-name">{c.typed ? `Use ${c.label}` : c.label}</span>
            <span className="model-option-detail">{c.typed ? c.detail : `${c.provider}${c.detail ? ` · ${c.detail}` : ''}`}</span>
          </div>
        ))}
      </div>
      <ProviderStates providers={providers} />
    </div>
  )
}

/** Which providers are still listing, and which could not (with why, and a retry). */
function ProviderStates({ providers }: { providers: string[] }) {
  const lists = useModels((s) => s.lists)
  const notes = providers.flatMap((p) => {
    const l = lists[p]
    if (!l || l.state === 'loading') return [{ p, text: 'listing models…', error: false }]
    if (l.state === 'error') return [{ p, text: l.message, error: true }]
    if (l.note) return [{ p, text: l.note, error: false }]
    return []
  })
  if (notes.length === 0) return null
  return (
    <ul className="model-notes small" data-testid="model-notes">
      {notes.map((n) => (
        <li key={n.p} className={n.error ? 'err' : 'muted'}>
          <strong>{n.p}</strong>: {n.text}
          {n.error && (
            <button className="link-btn" onClick={() => void loadModels(n.p, true)}>
              Retry
            </button>
          )}
        </li>
      ))}
    </ul>
  )
}
