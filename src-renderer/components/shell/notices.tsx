import { dismissNotice, useUi } from '../../state/ui-store'
import { ErrorNote } from '../common/error-note'

/** Errors with no better place on screen, bottom right, dismissable. */
export function Notices() {
  const notices = useUi((s) => s.notices)
  if (notices.length === 0) return null
  return (
    <div className="notices" data-testid="notices">
      {notices.map((n) => (
        <ErrorNote key={n.id} error={n} onDismiss={() => dismissNotice(n.id)} />
      ))}
    </div>
  )
}
