import { lineCount, pastesIn, type Pastes } from '../../state/pasted-text'

/** The long pastes in the message box, one chip each: Expand puts the whole text in place of its token; × drops it. */
export function PasteChips({ text, pastes, onText }: { text: string; pastes: Pastes; onText: (next: string) => void }) {
  const shown = pastesIn(text, pastes)
  if (!shown.length) return null
  return (
    <div className="paste-chips" data-testid="paste-chips">
      {shown.map((p) => (
        <span key={p.id} className="paste-chip" data-testid="paste-chip">
          <span className="paste-chip-label">
            Pasted text #{p.id} · {lineCount(p.text).toLocaleString('en-US')} lines, {p.text.length.toLocaleString('en-US')} characters — sent whole
          </span>
          <button type="button" className="btn small" data-testid="paste-expand" onClick={() => onText(text.split(p.token).join(p.text))}>
            Expand
          </button>
          <button type="button" className="btn small" data-testid="paste-remove" aria-label={`Remove pasted text #${p.id}`} onClick={() => onText(text.split(p.token).join(''))}>
            ×
          </button>
        </span>
      ))}
    </div>
  )
}
