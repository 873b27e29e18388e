import type { MessageRecord, MessageRole, MessageWithParts, PartRecord } from '../../src-shared'
import type { NestedTranscript, Transcript } from '../loop'
import { ToolError } from '../tools'

/** `subagent_type` that forks — the only way to fork. Reserved: an agent file named `fork` cannot be called. */
export const FORK_TYPE = 'fork'

const OWN_CALL_RESULT = 'Forked. You are the fork: a background copy of this conversation. Your directive follows; your parent goes on without you.'
const OTHER_CALL_RESULT = 'Handled by your parent; a fork does not see this result.'

/** The user message that starts a fork: its directive, and what a fork is for. */
export function forkDirective(prompt: string): string {
  return [
    '<fork_directive>',
    prompt,
    '</fork_directive>',
    'You are a fork: a background copy of the agent whose conversation is above. Carry out only the directive, with that conversation as your context; you cannot fork again. Your final message goes to your parent once, as your result: what you did and found, with no questions or offers.',
  ].join('\n')
}

/**
 * What a fork inherits: the parent's conversation exactly as its last request sent it (every message before the step
 * that forked, as the parent's prompt was built from them — so the fork's first request starts with the
 * same bytes and the provider's prompt cache hits), then that step itself with a result for each of its tool calls
 * (the provider requires one): the forking call says "you are the fork", the others that the parent handles them.
 */
export function inheritedConversation(history: MessageWithParts[], stepMessageId: string, toolCallId: string): MessageWithParts[] {
  const at = history.findIndex((m) => m.id === stepMessageId)
  if (at < 0) return history.slice()
  const step = structuredClone(history[at])
  step.parts = step.parts.map((p): PartRecord => {
    if (!p.toolCallId || p.data.providerExecuted) return p
    const own = p.toolCallId === toolCallId
    return { ...p, toolState: 'output-available', data: { ...p.data, output: own ? OWN_CALL_RESULT : OTHER_CALL_RESULT } }
  })
  return [...history.slice(0, at), step]
}

/** A fork's transcript: the inherited conversation (read-only, never copied into storage) followed by its own messages. */
export class ForkTranscript implements Transcript {
  constructor(
    private readonly inherited: MessageWithParts[],
    private readonly own: NestedTranscript,
  ) {}

  get sessionId(): string {
    return this.own.sessionId
  }

  history(): MessageWithParts[] {
    return [...this.inherited, ...this.own.history()]
  }

  createMessage(role: MessageRole, metadata?: Record<string, unknown>): MessageRecord {
    return this.own.createMessage(role, metadata)
  }

  upsertPart(part: PartRecord): void {
    this.own.upsertPart(part)
  }

  updateMessageMetadata(id: string, patch: Record<string, unknown>): void {
    this.own.updateMessageMetadata(id, patch)
  }

  flush(): void {
    this.own.flush()
  }
}

/** A fork may not fork again. */
export function refuseFork(isFork: boolean): void {
  if (isFork) throw new ToolError('A fork cannot fork again. Do the work yourself, or start a typed subagent (subagent_type).')
}

/** A fork is not resumed: its conversation was its parent's at that moment. */
export const FORK_NOT_RESUMABLE = 'That task_id is a fork, and a fork cannot be continued: start a new one (subagent_type "fork") with the follow-up as its prompt.'
