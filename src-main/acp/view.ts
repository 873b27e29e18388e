import type { PlanEntry, SessionUpdate, ToolCall } from '@agentclientprotocol/sdk/unstable'
import type { MessageRecord, MessageWithParts, PartRecord } from '../../src-shared'
import { isBackground, resultTaskId, taskContent, taskStatus, type TaskCardSummary } from './task-view'
import { toolContent, toolKind, toolLocations, toolStatus, toolTitle, type ToolCallSource } from './tool-view'

/**
 * A session as `session/update`s. The same functions serve the live stream and the replay of a stored transcript
 * (`session/load`): a tool call's final fields depend only on what is stored with it, so what an editor shows after
 * a load is what it showed live.
 */

export interface ViewOptions {
  /** the session's workspace */
  workdir: string
  /** the client shows `notice` updates; otherwise notices are agent text */
  notices: boolean
  /** the client advertised `subagents`: each subagent is a child session of its own (child-sessions.ts) */
  childSessions?: boolean
}

/** One tool call of the session's own transcript (the root's), identified in ACP by its part id. */
export interface CallState extends ToolCallSource {
  id: string
  /**
   * announced but not known to run yet: it may still wait for its approval. Such a call is `pending` until it is
   * allowed, shows its work (a subagent's card) or ends, so its status never goes back (pending → in_progress → end).
   */
  waiting?: boolean
  card?: TaskCardSummary
  backgroundResult?: string
}

export type ToolCallFields = Required<Pick<ToolCall, 'title' | 'kind' | 'status' | 'content' | 'locations'>> & { rawInput: unknown }

/** Everything an editor shows of a call in its current state. */
export function callFields(c: CallState): ToolCallFields {
  const task = c.toolName === 'task'
  const source = { card: c.card, state: c.state, output: c.output, error: c.error, backgroundResult: c.backgroundResult }
  return {
    title: toolTitle(c.toolName, c.input),
    kind: toolKind(c.toolName),
    status: c.waiting && c.state === 'running' ? 'pending' : task ? taskStatus(source) : toolStatus(c.state),
    content: task ? taskContent(source) : toolContent(c),
    locations: toolLocations(c.toolName, c.input, c.workdir),
    rawInput: c.input,
  }
}

/** Whether a call's ACP status is final (a background task stays open after its tool call returned). */
export function callSettled(c: CallState): boolean {
  const status = callFields(c).status
  return status === 'completed' || status === 'failed'
}

export function isTaskInBackground(c: CallState): boolean {
  return c.toolName === 'task' && isBackground(c)
}

/** `todo` calls are shown as the editor's plan, not as tool calls. */
export function planUpdate(input: unknown): SessionUpdate | undefined {
  const todos = (input as { todos?: unknown } | null)?.todos
  if (!Array.isArray(todos)) return undefined
  const entries: PlanEntry[] = todos
    .filter((t): t is { content: string; status: PlanEntry['status'] } => typeof t?.content === 'string' && ['pending', 'in_progress', 'completed'].includes(t?.status))
    .map((t) => ({ content: t.content, status: t.status, priority: 'medium' }))
  return { sessionUpdate: 'plan', entries }
}

export function textChunk(kind: 'user' | 'agent' | 'thought', text: string, messageId: string): SessionUpdate {
  const sessionUpdate = kind === 'user' ? 'user_message_chunk' : kind === 'agent' ? 'agent_message_chunk' : 'agent_thought_chunk'
  return { sessionUpdate, content: { type: 'text', text }, messageId }
}

/** A notice (a rules file that cannot be used, a restart that closed calls): shown, never sent to the model. */
export function noticeUpdate(text: string, messageId: string, o: ViewOptions): SessionUpdate {
  if (!o.notices) return textChunk('agent', `> ⚠ ${text.replace(/\n/g, '\n> ')}\n\n`, messageId)
  const [title, ...rest] = text.split('\n')
  return { sessionUpdate: 'notice', severity: 'warning', title, ...(rest.length ? { description: rest.join('\n') } : {}) }
}

/** A tool part of the transcript as the call state the view functions take. */
export function callFromPart(part: PartRecord, workdir: string, backgroundResults: Map<string, string>): CallState {
  const d = part.data
  const state = part.toolState === 'output-available' ? 'ok' : part.toolState === 'output-error' ? 'error' : 'running'
  const card = taskCard(d.subagent)
  return {
    id: part.id,
    toolName: part.type.slice('tool-'.length),
    input: d.input,
    state,
    output: typeof d.output === 'string' ? d.output : undefined,
    error: typeof d.error === 'string' ? d.error : undefined,
    metadata: d.metadata && typeof d.metadata === 'object' ? (d.metadata as Record<string, unknown>) : undefined,
    workdir,
    ...(part.toolState === 'approval-requested' ? { waiting: true } : {}),
    card,
    backgroundResult: card ? backgroundResults.get(card.taskId) : undefined,
  }
}

export function taskCard(raw: unknown): TaskCardSummary | undefined {
  if (!raw || typeof raw !== 'object' || typeof (raw as { taskId?: unknown }).taskId !== 'string') return undefined
  const { transcript: _t, ...card } = raw as TaskCardSummary & { transcript?: unknown }
  return card
}

export function messageText(m: MessageWithParts): string {
  return m.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text ?? '')).join('')
}

/** How a whole message written at once (not streamed) is shown: a prompt, a notice, a background result, or text. */
export type WholeMessage = { kind: 'user' | 'notice' | 'agent' } | { kind: 'background'; taskId: string }

export function classify(m: MessageRecord, text: string): WholeMessage {
  if (m.metadata.notice) return { kind: 'notice' }
  if (m.metadata.synthetic) {
    const taskId = resultTaskId(text)
    if (taskId) return { kind: 'background', taskId }
  }
  return { kind: m.role === 'user' ? 'user' : 'agent' }
}

/** The updates that replay a stored transcript, in order. */
export function replayUpdates(messages: MessageWithParts[], o: ViewOptions): SessionUpdate[] {
  const results = new Map<string, string>()
  for (const m of messages) {
    const c = classify(m, messageText(m))
    if (c.kind === 'background') results.set(c.taskId, messageText(m))
  }
  const updates: SessionUpdate[] = []
  for (const m of messages) {
    if (m.role === 'system') continue
    const whole = classify(m, messageText(m))
    if (whole.kind === 'background') continue // shown in its task call
    if (whole.kind === 'notice') {
      updates.push(noticeUpdate(messageText(m), m.id, o))
      continue
    }
    for (const part of m.parts) {
      if (part.type === 'text' && part.data.text) updates.push(textChunk(m.role === 'user' ? 'user' : 'agent', String(part.data.text), m.id))
      else if (part.type === 'reasoning' && part.data.text) updates.push(textChunk('thought', String(part.data.text), m.id))
      else if (part.type.startsWith('tool-') && part.toolCallId) {
        const call = callFromPart(part, o.workdir, results)
        if (call.toolName === 'todo') {
          const plan = call.state === 'ok' ? planUpdate(call.input) : undefined
          if (plan) updates.push(plan)
          continue
        }
        updates.push({ sessionUpdate: 'tool_call', toolCallId: call.id, ...callFields(call) })
      }
    }
  }
  return updates
}
