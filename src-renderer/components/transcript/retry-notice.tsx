import { useEffect, useState } from 'react'
import { useTranscript } from '../../state/transcript-store'

/**
 * While the host waits to ask the provider again: "Retrying in 3 s — attempt 2 of 4", and why the last request failed.
 * The transcript was empty for those seconds; a person could not tell waiting from hanging.
 */
export function RetryNotice({ sessionId }: { sessionId: string }) {
  const retry = useTranscript((s) => (s.transcripts[sessionId]?.status === 'retrying' ? (s.transcripts[sessionId]?.retry ?? null) : null))
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!retry) return
    const t = setInterval(() => setNow(Date.now()), 500)
    return () => clearInterval(t)
  }, [retry])
  if (!retry) return null
  const left = Math.max(0, Math.ceil((retry.at + retry.delayMs - now) / 1000))
  return (
    <div className="retry-notice" data-testid="retry-notice" role="status">
      <span className="retry-spin" aria-hidden>↻</span>
      <span>
        {left > 0 ? `Retrying in ${left} s` : 'Retrying now'} — attempt {retry.attempt} of {retry.of}
        <span className="muted"> · the provider said: {retry.error}</span>
      </span>
    </div>
  )
}
