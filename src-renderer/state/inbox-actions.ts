import type { CallInput } from '../../src-shared'
import { useApprovals } from './approvals-store'
import { call } from './bridge'
import { answerApproval, openSession } from './session-actions'
import { toUiError, type UiError } from './ui-error'
import { useUi } from './ui-store'
import { openWorkspace } from './workspace-actions'
import { useWorkspace } from './workspace-store'

export function openInbox(): void {
  useUi.setState({ screen: 'inbox', paletteOpen: false })
}

type Answer = (input: CallInput<'approvals.answer'>) => Promise<UiError | null>

/**
 * Answers several approvals the same way (Allow once or Deny), all at once: each is its own call, so one that fails
 * (answered elsewhere meanwhile, its run gone) does not hold back the others. Returns the failures by id, leaving out
 * those that left the list while we asked (another answer's "always" covered them, or a resolved event came first).
 */
export async function answerMany(ids: string[], decision: 'allow_once' | 'deny', answer: Answer = answerApproval): Promise<Record<string, UiError>> {
  const results = await Promise.all(ids.map(async (approvalId) => [approvalId, await answer({ approvalId, decision })] as const))
  const pending = useApprovals.getState().pending
  const failed: Record<string, UiError> = {}
  for (const [id, err] of results) if (err && pending[id]) failed[id] = err
  return failed
}

/**
 * Opens a conversation wherever it lives: switches the workspace first when it is another one. `workspaceRoot` is
 * what the caller knows; without it the host is asked (a notification from a session the app never listed).
 */
export async function openConversation(sessionId: string, workspaceRoot?: string | null): Promise<UiError | null> {
  let root = workspaceRoot ?? null
  if (!root) {
    const res = await call('sessions.get', { sessionId })
    if (!res.ok) return toUiError('Opening the conversation', res.error)
    root = res.data.session.workspaceRoot
  }
  if (root !== useWorkspace.getState().root && !(await openWorkspace(root))) {
    return { context: 'Opening the conversation', message: `Could not open the folder ${root}.`, hint: 'See the message under the folder name at the top.' }
  }
  await openSession(sessionId)
  return null
}
