// The "Always allow" grants of one conversation (session and run scope), for the conversation's own list of them:
// loaded from the host, revoked there, and Settings reloaded after a revoke so both show the same.
import { create } from 'zustand'
import type { ListedRule } from '../../src-shared'
import { call } from './bridge'
import { toUiError, type UiError } from './ui-error'
import { loadSettings } from './workspace-actions'

export const useGrants = create<{ byRoot: Record<string, ListedRule[]> }>(() => ({ byRoot: {} }))

/** The grants made in this conversation (its root and every session below it); null when loaded. */
export async function loadConversationGrants(rootSessionId: string): Promise<UiError | null> {
  const r = await call('rules.list', { sessionId: rootSessionId })
  if (!r.ok) return toUiError('Loading the permissions of this conversation', r.error)
  useGrants.setState((s) => ({ byRoot: { ...s.byRoot, [rootSessionId]: r.data.rules } }))
  return null
}

/** Revokes one grant of this conversation; its list and Settings are loaded again. */
export async function revokeConversationGrant(rootSessionId: string, ruleId: string): Promise<UiError | null> {
  const r = await call('rules.revoke', { ruleId })
  if (!r.ok) return toUiError('Revoking the permission', r.error)
  const [failed] = await Promise.all([loadConversationGrants(rootSessionId), loadSettings()])
  return failed
}
