import { useState } from 'react'
import { COLLAPSE_LINES, lineCount } from '../../state/pasted-text'

const SHOWN_LINES = 12

/** A person's message with a pasted log in it: the first lines, and a button for the rest (the model got it all). */
export function LongText({ text, className }: { text: string; className: string }) {
  const [open, setOpen] = useState(false)
  const lines = lineCount(text)
  if (lines <= COLLAPSE_LINES || open) {
    return (
      <div className={className}>
        {text}
        {open && (
          <button type="button" className="link-btn long-text-toggle" data-testid="long-text-less" onClick={() => setOpen(false)}>
            Show less
          </button>
        )}
      </div>
    )
  }
  return (
    <div className={className}>
      {text.split('\n').slice(0, SHOWN_LINES).join('\n')}
      <button type="button" className="link-btn long-text-toggle" data-testid="long-text-more" onClick={() => setOpen(true)}>
        Show all {lines.toLocaleString('en-US')} lines
      </button>
    </div>
  )
}
