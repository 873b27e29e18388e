/** When a message was written: the time today, the date and time before that; the full date on hover. */
export function MessageTime({ at }: { at: number }) {
  const d = new Date(at)
  const today = new Date().toDateString() === d.toDateString()
  const short = today ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' }) : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
  return (
    <time className="msg-time" data-testid="message-time" dateTime={d.toISOString()} title={d.toLocaleString()}>
      {short}
    </time>
  )
}
