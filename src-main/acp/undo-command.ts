import type { PromptResponse, SessionUpdate } from '@agentclientprotocol/sdk/unstable'
import type { RestoreOutcome } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'

/** `/undo` typed in an editor (the only words it takes: an editor has no dialog to pick a turn). */
export function isUndoPrompt(text: string): boolean {
  return /^\/undo\s*$/.test(text.trim())
}

/**
 * `/undo` from an editor: the same all-or-nothing undo as the app's, of the last message the person sent. An editor
 * has no dialog to show a plan in, so the undo runs at once and the reply says what it did — or, when a file changed
 * since, that nothing was written and which file stands in the way. The editor keeps showing the undone messages
 * (ACP cannot take a message back), so the reply says the model will not see them.
 */
export async function undoFromEditor(api: BridgeClient, sessionId: string, send: (u: SessionUpdate) => void): Promise<PromptResponse> {
  let reply: string
  try {
    reply = undoReply(await api.calls['changes.undo']({ sessionId }))
  } catch (err) {
    reply = `Nothing was undone: ${err instanceof Error ? err.message : String(err)}`
  }
  send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: reply } })
  return { stopReason: 'end_turn' }
}

export function undoReply(outcome: RestoreOutcome): string {
  if (!outcome.applied) {
    const why = outcome.conflicts.map((c) => `- ${c.path}: ${c.detail}`)
    return ['Nothing was undone: these files changed since, and undo never overwrites that (undo them by hand, or use the Changes view in the Agentry app):', ...why].join('\n')
  }
  const n = outcome.steps.length
  const named = outcome.steps.slice(0, 10).map((s) => s.path).join(', ') + (n > 10 ? `, and ${n - 10} more` : '')
  const files = n === 0 ? 'no files needed restoring' : `${n} file${n === 1 ? '' : 's'} restored (${named})`
  return `Undone: ${files}. Your last message and everything after it are out of the conversation — the model will not see them (your editor still shows them). Send your next message as usual.`
}
