import { useConnection } from '../../state/connection-store'

/**
 * Says what to do when the host will not take this tab back: it restarted with a new access token, so reconnecting
 * can never succeed on its own.
 */
export function ConnectionBanner() {
  const state = useConnection((s) => s.state)
  if (state !== 'refused') return null
  return (
    <div className="banner error" role="alert" data-testid="token-refused">
      <strong>This tab can no longer reach Agentry: the host was restarted with a new access token.</strong>{' '}
      Open the new URL that <code>agentry serve</code> printed (it ends with <code>?token=…</code>). To keep open tabs working across
      restarts, start it with <code>agentry serve --token &lt;your-token&gt;</code> (or set <code>AGENTRY_TOKEN</code>).
    </div>
  )
}
