import { call } from './bridge'
import { toUiError, type UiError } from './ui-error'

/**
 * Shows version `index` of an edited message (issue 28). Nothing changes here directly: the host hides the branch on
 * screen and shows the chosen one through the session's events, so every open window follows the same way.
 */
export async function switchVersion(sessionId: string, messageId: string, index: number): Promise<UiError | null> {
  const res = await call('messages.version', { sessionId, messageId, index })
  return res.ok ? null : toUiError('Switching to another version', res.error)
}
