import type { CommandEntry } from '../../../src-shared'

/**
 * The composer's `/` list: each command with its argument hint and description, the picked one highlighted.
 * Keys are the composer's (↑/↓ move, Tab/Enter complete, Esc closes); a click completes.
 */
export function CommandMenu({ commands, pick, onPick }: { commands: CommandEntry[]; pick: number; onPick(name: string): void }) {
  return (
    <div className="popover mention-menu command-menu" data-testid="command-menu" role="listbox" aria-label="Commands">
      {commands.map((c, i) => (
        <div
          key={c.name}
          role="option"
          aria-selected={i === pick}
          data-testid="command-option"
          className={`agent-option ${i === pick ? 'current' : ''}`}
          ref={i === pick ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
          onMouseDown={(e) => {
            e.preventDefault()
            onPick(c.name)
          }}
        >
          <span className="agent-option-text">
            <span className="agent-option-name">
              /{c.name}
              {c.argumentHint && <span className="command-hint"> {c.argumentHint}</span>}
              {c.source !== 'builtin' && <span className="command-source">{c.source === 'workspace' ? 'workspace' : c.source === 'skill' ? 'skill' : 'yours'}</span>}
            </span>
            <span className="agent-option-desc">{c.description || 'No description'}</span>
          </span>
        </div>
      ))}
    </div>
  )
}
