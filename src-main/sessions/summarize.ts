import type { MessageWithParts, SessionRecord } from '../../src-shared'
import { RunRefused, type RunLevel } from '../runtime'
import { clipMiddle } from './clip-middle'
import type { Emitter } from './emitter'
import { helperModel } from './helper-model'
import type { RunnerDeps } from './runner'
import { RunnerError } from './session-error'

/**
 * The hidden `summary` agent over the whole visible conversation (its start and its end when it is long), stored in
 * the session's metadata. It runs as a helper in the run registry: deleting or archiving the session stops it.
 */
export async function summarize(deps: RunnerDeps, session: SessionRecord, emitter: Emitter, levelFor: (signal: AbortSignal) => RunLevel): Promise<string> {
  const text = renderConversation(deps.transcript.listMessages(session.id))
  if (!text.trim()) throw new RunnerError('conflict', 'This session has no messages to summarize yet.')
  let result: Awaited<ReturnType<RunnerDeps['subagents']['runHelper']>> | undefined
  let record
  try {
    record = deps.runs.begin({ kind: 'helper', sessionId: session.id, path: [...emitter.ancestors.map((a) => a.id), session.id], agentType: 'summary' }, async (r) => {
      const level = levelFor(r.controller.signal)
      result = await deps.subagents.runHelper(level, 'summary', clipMiddle(text), helperModel(level))
    })
  } catch (err) {
    if (err instanceof RunRefused) throw new RunnerError('conflict', 'This session is being deleted or archived right now.')
    throw err
  }
  await record.done
  if (!result) throw new RunnerError('conflict', 'The summary was stopped before it began.')
  if (result.finishReason === 'aborted') throw new RunnerError('conflict', `The summary was stopped: ${result.error ?? 'aborted'}.`)
  if (result.finishReason === 'error') throw new RunnerError('conflict', `The summary agent failed: ${result.error ?? 'unknown error'}`)
  const current = deps.sessions.getSession(session.id) ?? session
  const updated = deps.sessions.updateSession(session.id, { metadata: { ...current.metadata, summary: result.text } })
  emitter.emit({ type: 'session_updated', sessionId: session.id, at: Date.now(), session: updated })
  return result.text
}

/** Plain-text rendering of a conversation for the summary agent. */
function renderConversation(messages: MessageWithParts[]): string {
  return messages
    .filter((m) => !m.metadata.hiddenAt)
    .map((m) => `${m.role}: ${m.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text ?? '')).join('\n')}`)
    .join('\n\n')
}
