import { useEffect, useRef, useState } from 'react'
import { agentColor, pickable, selectAgent, useAgents } from '../state/agents-store'
import { useWorkspace } from '../state/workspace-store'

/** Chooses the agent the next message goes to (primary/all, not hidden); remembered per workspace. */
export function AgentPicker() {
  const agents = useAgents((s) => s.agents)
  const selected = useAgents((s) => s.selected)
  const root = useWorkspace((s) => s.root)
  const [open, setOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  const choices = pickable(agents)
  const current = choices.find((a) => a.name === selected)

  useEffect(() => {
    if (!open) return
    const close = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false)
    }
    window.addEventListener('mousedown', close)
    return () => window.removeEventListener('mousedown', close)
  }, [open])

  return (
    <div className="agent-picker" ref={ref}>
      <button
        className="agent-picker-btn"
        data-testid="agent-picker"
        data-agent={selected ?? ''}
        onClick={() => setOpen(!open)}
        title={current?.description}
      >
        <span className="agent-dot" style={{ background: agentColor(selected ?? '', current) }} />
        {selected ?? 'no agent'}
        <span className="caret" aria-hidden>▾</span>
      </button>
      {open && (
        <div className="popover agent-menu" role="listbox" data-testid="agent-menu">
          {choices.map((a) => (
            <button
              key={a.name}
              role="option"
              aria-selected={a.name === selected}
              className={`agent-option ${a.name === selected ? 'current' : ''}`}
              data-testid={`agent-option-${a.name}`}
              onClick={() => {
                selectAgent(root, a.name)
                setOpen(false)
              }}
            >
              <span className="agent-dot" style={{ background: agentColor(a.name, a) }} />
              <span className="agent-option-text">
                <span className="agent-option-name">
                  {a.name} <span className="muted small">{a.mode}</span>
                </span>
                <span className="agent-option-desc">{a.description}</span>
              </span>
            </button>
          ))}
          {choices.length === 0 && <div className="muted pad">No primary agents are available. Check Settings › Agents.</div>}
        </div>
      )}
    </div>
  )
}
