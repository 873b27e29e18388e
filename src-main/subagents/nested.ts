import type { MessageWithParts, TaskCard } from '../../src-shared'

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
