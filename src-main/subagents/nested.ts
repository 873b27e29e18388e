import type { MessageWithParts, PartRecord, TaskCard } from '../../src-shared'

/** Finds an opaque child's card (with its nested transcript) anywhere in a transcript, recursively. */
export function findNestedTask(messages: MessageWithParts[], taskId: string): TaskCard | undefined {
  for (const message of messages) {
    for (const part of message.parts) {
      const card = part.data.subagent as TaskCard | undefined
      if (!card) continue
      if (card.taskId === taskId) return card
      const deeper = card.transcript && findNestedTask(card.transcript, taskId)
      if (deeper) return deeper
    }
  }
  return undefined
}

/** An opaque level a nested record lives in, outermost first. */
export type NestedPath = { sessionId: string; agentType: string }[]

/**
 * Rewrites the nested transcript of opaque child `taskId`, wherever it sits below the stored `messages`: `edit`
 * gets that child's messages and returns them changed. Returns the stored part that had to be rewritten (with
 * every card on the way copied, never mutated) and the opaque levels down to the child, or undefined when the child
 * is not there.
 */
export function editNestedTranscript(
  messages: MessageWithParts[],
  taskId: string,
  edit: (messages: MessageWithParts[]) => MessageWithParts[],
): { part: PartRecord; path: NestedPath } | undefined {
  for (const message of messages) {
    for (const part of message.parts) {
      const hit = editIn(part, taskId, edit, [])
      if (hit) return hit
    }
  }
  return undefined
}

function editIn(part: PartRecord, taskId: string, edit: (m: MessageWithParts[]) => MessageWithParts[], path: NestedPath): { part: PartRecord; path: NestedPath } | undefined {
  const card = part.data.subagent as TaskCard | undefined
  if (!card?.transcript) return undefined
  const inner = [...path, { sessionId: card.taskId, agentType: card.agentType }]
  if (card.taskId === taskId) {
    return { part: { ...part, data: { ...part.data, subagent: { ...card, transcript: edit(card.transcript) } } }, path: inner }
  }
  for (let m = 0; m < card.transcript.length; m++) {
    const message = card.transcript[m]
    for (let p = 0; p < message.parts.length; p++) {
      const hit = editIn(message.parts[p], taskId, edit, inner)
      if (!hit) continue
      const parts = message.parts.map((x, i) => (i === p ? hit.part : x))
      const transcript = card.transcript.map((x, i) => (i === m ? { ...message, parts } : x))
      return { part: { ...part, data: { ...part.data, subagent: { ...card, transcript } } }, path: hit.path }
    }
  }
  return undefined
}
