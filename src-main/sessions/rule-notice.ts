import type { AgentEvent } from '../../src-shared'
import { appendTextMessage, type Transcript } from '../loop'

export const RULES_NOTICE = 'rules_malformed'

/**
 * A rules file that cannot be used makes every call ask; the person should hear why, in the session, stored with
 * it (a notice: shown, never sent to the model). Repeated only when what is wrong changes.
 */
export function noteRuleErrors(transcript: Transcript, emit: (e: AgentEvent) => void, errors: { file: string; reason: string }[]): void {
  if (errors.length === 0) return
  const text = [
    `${errors.length === 1 ? 'A permission rules file cannot be used' : 'Permission rules files cannot be used'}; until fixed, every tool call asks:`,
    ...errors.map((e) => `- ${e.file}: ${e.reason}`),
  ].join('\n')
  const last = [...transcript.history()].reverse().find((m) => m.metadata.notice === RULES_NOTICE)
  const lastText = last?.parts.map((p) => (p.type === 'text' ? String(p.data.text ?? '') : '')).join('')
  if (lastText === text) return
  appendTextMessage(transcript, emit, 'assistant', text, { notice: RULES_NOTICE })
}
