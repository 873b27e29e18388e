import { useEffect, useState } from 'react'

type State = 'idle' | 'copied' | 'failed'

/** Copies `text()` to the clipboard and says so for a moment; a refusal (no permission) is shown, not swallowed. */
export function CopyButton({ text, label, className, testId }: { text: () => string; label: string; className?: string; testId?: string }) {
  const [state, setState] = useState<State>('idle')
  const [reason, setReason] = useState('')
  useEffect(() => {
    if (state === 'idle') return
    const t = setTimeout(() => setState('idle'), state === 'copied' ? 1500 : 4000)
    return () => clearTimeout(t)
  }, [state])

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text())
      setState('copied')
    } catch (err) {
      setReason(err instanceof Error ? err.message : String(err))
      setState('failed')
    }
  }

  return (
    <button
      type="button"
      className={`copy-btn ${className ?? ''}`}
      data-testid={testId ?? 'copy-button'}
      data-state={state}
      aria-label={label}
      title={state === 'failed' ? `Could not copy: ${reason}` : label}
      onClick={() => void copy()}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
    </button>
  )
}
