import { create } from 'zustand'
import { openSession } from './session-actions'

/** A search hit being opened: the transcript scrolls to its message and marks it until the person's next action. */
export type SearchJump = {
  sessionId: string
  messageId: string
  /** the words the hit's snippet marks, highlighted in the message */
  terms: string[]
  /** changes with every opening, so opening the same hit again scrolls again */
  seq: number
}

export const useSearchJump = create<{ jump: SearchJump | null }>(() => ({ jump: null }))

let seq = 0

/** Opens a message-search hit: its session, scrolled to the matching message, `terms` highlighted in it. */
export function openSearchHit(hit: { sessionId: string; messageId: string; terms: string[] }): void {
  useSearchJump.setState({ jump: { ...hit, seq: ++seq } })
  void openSession(hit.sessionId)
}

export function clearSearchJump(): void {
  if (useSearchJump.getState().jump) useSearchJump.setState({ jump: null })
}
