import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { agentColor, pickable, selectAgent, useAgents } from '../../state/agents-store'
import { useChipAgent } from '../../state/chip-agent'
import { useTranscript } from '../../state/transcript-store'
import { useWorkspace } from '../../state/workspace-store'

/**
 * The agent chip: shows the agent the next message goes to — the one of the session on screen (a child
 * session's own agent too) — and picks another (primary/all, not hidden). Keyboard: ↑/↓/Enter opens, arrows
 * move, Enter chooses, Esc closes.
 */
export function AgentPicker() {
  const agents = useAgents((s) => s.agents)
  const byName = useAgents((s) => s.byName)
  const chip = useChipAgent()
  const viewId = useTranscript((s) => s.viewId)
  const root = useWorkspace((s) => s.root)
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const ref = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const list = useRef<HTMLDivElement>(null)
  const choices = pickable(agents)
  const info = chip ? byName[chip] : undefined

  useEffect(() => {
    if (!open) return
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false)
    }
    window.addEventListener('mousedown', close)
    list.current?.focus()
    return () => window.removeEventListener('mousedown', close)
  }, [open])

  const show = () => {
    setActive(Math.max(0, choices.findIndex((a) => a.name === chip)))
    setOpen(true)
  }
  const close = () => {
    setOpen(false)
    button.current?.focus()
  }
  const choose = (name: string) => {
    selectAgent(root, name, viewId)
    close()
  }

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      show()
    }
  }
  const onListKey = (e: KeyboardEvent) => {
    const n = choices.length
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      close()
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      if (n) setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : n - 1)) % n)
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault()
      setActive(e.key === 'Home' ? 0 : n - 1)
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
      if (choices[active]) choose(choices[active].name)
    } else if (e.key === 'Tab') setOpen(false)
  }

  return (
    <div className="agent-picker" ref={ref}>
      <button
        ref={button}
        type="button"
        className="agent-picker-btn"
        data-testid="agent-picker"
        data-agent={chip ?? ''}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-label={`Agent: ${chip ?? 'none'}. Change agent`}
        onClick={() => (open ? setOpen(false) : show())}
        onKeyDown={onButtonKey}
        title={info?.description}
      >
        <span className="agent-dot" style={{ background: agentColor(chip ?? '', info) }} />
        <span className="agent-picker-name">{chip ?? 'no agent'}</span>
        <span className="caret" aria-hidden>▾</span>
      </button>
      {open && (
        <div
          ref={list}
          className="popover agent-menu"
          role="listbox"
          aria-label="Agents"
          tabIndex={-1}
          aria-activedescendant={choices[active] ? `agent-option-${choices[active].name}` : undefined}
          data-testid="agent-menu"
          onKeyDown={onListKey}
        >
          {choices.map((a, i) => (
            <div
              key={a.name}
              id={`agent-option-${a.name}`}
              role="option"
              aria-selected={a.name === chip}
              className={`agent-option ${i === active ? 'current' : ''}`}
              data-testid={`agent-option-${a.name}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => choose(a.name)}
            >
              <span className="agent-dot" style={{ background: agentColor(a.name, a) }} />
              <span className="agent-option-text">
                <span className="agent-option-name">
                  {a.name} <span className="agent-option-mode">{a.mode}</span>
                </span>
                <span className="agent-option-desc">{a.description}</span>
              </span>
            </div>
          ))}
          {choices.length === 0 && <div className="pad">No primary agents are available. Check Settings › Agents.</div>}
        </div>
      )}
    </div>
  )
}
