import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { loadModels, pickerProviders, useModels } from '../../state/models-store'
import { paletteItems, type PaletteItem, type PaletteMode } from '../../state/palette-commands'
import { useUi } from '../../state/ui-store'

/**
 * Ctrl/Cmd+K: one box to run a command (new session, switch session, switch agent, settings, stop, …).
 * Type to filter, ↑/↓ to move, Enter to run, Esc to close (or to go back from a sub-list).
 */
export function CommandPalette() {
  const open = useUi((s) => s.paletteOpen)
  if (!open) return null
  return <Palette />
}

function Palette() {
  // Opened by the composer's `/agents` or `/model`: straight at that list (taken once, so Ctrl+K opens at the top).
  const [mode, setMode] = useState<PaletteMode>(() => {
    const start = useUi.getState().paletteStart
    if (start) useUi.setState({ paletteStart: null })
    return start ?? 'root'
  })
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const input = useRef<HTMLInputElement>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const returnTo = useRef<Element | null>(document.activeElement)
  const lists = useModels((s) => s.lists)
  const items = useMemo(() => paletteItems(mode, query), [mode, query, mode === 'model' ? lists : null])
  useEffect(() => {
    if (mode === 'model') for (const p of pickerProviders()) void loadModels(p)
  }, [mode])

  useEffect(() => {
    input.current?.focus()
    const back = returnTo.current
    return () => {
      if (back instanceof HTMLElement && back.isConnected) back.focus()
    }
  }, [])
  useEffect(() => setActive(0), [mode, query])
  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' })
  }, [active])

  const close = () => useUi.setState({ paletteOpen: false })
  const run = (item: PaletteItem | undefined) => {
    if (!item) return
    if (item.next) {
      setMode(item.next)
      setQuery('')
      return
    }
    close()
    item.run?.()
  }

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      if (mode !== 'root') {
        setMode('root')
        setQuery('')
      } else close()
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      if (items.length) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length)
    } else if (e.key === 'Enter') {
      e.preventDefault()
      run(items[active])
    } else if (e.key === 'Backspace' && query === '' && mode !== 'root') {
      setMode('root')
    } else if (e.key === 'Tab') {
      // One field: Tab stays in it rather than leaving the dialog.
      e.preventDefault()
    }
  }

  const placeholder = mode === 'session' ? 'Switch to session…' : mode === 'agent' ? 'Switch agent…' : mode === 'model' ? 'Switch model, or type provider/model…' : 'Type a command…'
  const activeId = items[active] ? `palette-item-${active}` : undefined
  return (
    <div className="palette-backdrop" onMouseDown={close} data-testid="palette-backdrop">
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette" data-testid="palette" onMouseDown={(e) => e.stopPropagation()} onKeyDown={onKey}>
        <input
          ref={input}
          className="palette-input"
          data-testid="palette-input"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={activeId}
          aria-autocomplete="list"
          aria-label={placeholder}
          placeholder={placeholder}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
        <div id="palette-list" ref={listRef} className="palette-list" role="listbox" aria-label="Commands">
          {items.map((it, i) => (
            <div
              key={it.id}
              id={`palette-item-${i}`}
              data-index={i}
              role="option"
              aria-selected={i === active}
              className={`palette-item ${i === active ? 'current' : ''}`}
              data-testid="palette-item"
              data-command={it.id}
              onMouseEnter={() => setActive(i)}
              onClick={() => run(it)}
            >
              {it.color && <span className="agent-dot" style={{ background: it.color }} />}
              <span className="palette-label">{it.label}</span>
              {it.detail && <span className="palette-detail">{it.detail}</span>}
              {it.shortcut && <kbd>{it.shortcut}</kbd>}
            </div>
          ))}
          {items.length === 0 && (
            <div className="palette-empty" role="option" aria-selected="false" aria-disabled="true">
              Nothing matches “{query}”.
            </div>
          )}
        </div>
      </div>
    </div>
  )
}
