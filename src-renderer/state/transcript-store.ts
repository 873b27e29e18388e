import { create } from 'zustand'
import type { BudgetView, QueueEntry, SessionRecord, ToolCallCounts } from '../../src-shared'
import type { UiError } from './ui-error'
import type { Transcripts } from './transcript-model'

export type BackgroundTask = {
  taskId: string
  parentSessionId: string
  agentType: string
  description: string
  status: string
  inspectable: boolean
  createdAt: number
  endedAt: number | null
  /** spent against its budget, live from its card (absent: no budget, or not heard since a reload) */
  budget?: BudgetView
  /** its card's: the person stopped it (shown as stopped, not failed) */
  stoppedByUser?: boolean
  /** its card's: denied and failed tool calls */
  toolCalls?: ToolCallCounts
}

export type TranscriptStoreState = TranscriptStore

type TranscriptStore = {
  transcripts: Transcripts
  /** the session on screen (a root or an inspectable child) */
  viewId: string | null
  /** the root whose event stream we follow */
  rootId: string | null
  viewSession: SessionRecord | null
  ancestors: { id: string; title: string; agent: string }[]
  loading: boolean
  loadError: UiError | null
  /** queued prompts per session */
  queue: Record<string, QueueEntry[]>
  /** background children of the open root, by task id */
  tasks: Record<string, BackgroundTask>
  /** subagent cards the person expanded, by child session id */
  expanded: Record<string, true>
  /** inspectable children fetched for nesting: id → 'loading' | error text */
  childLoads: Record<string, 'loading' | 'done' | UiError>
}

export const useTranscript = create<TranscriptStore>(() => ({
  transcripts: {},
  viewId: null,
  rootId: null,
  viewSession: null,
  ancestors: [],
  loading: false,
  loadError: null,
  queue: {},
  tasks: {},
  expanded: {},
  childLoads: {},
}))

export function toggleExpanded(childId: string): void {
  useTranscript.setState((s) => {
    const expanded = { ...s.expanded }
    if (expanded[childId]) delete expanded[childId]
    else expanded[childId] = true
    return { expanded }
  })
}

export function setQueue(sessionId: string, entries: QueueEntry[]): void {
  useTranscript.setState((s) => ({ queue: { ...s.queue, [sessionId]: entries.filter((e) => e.status === 'queued') } }))
}

export function upsertTasks(list: BackgroundTask[]): void {
  if (list.length === 0) return
  useTranscript.setState((s) => {
    const tasks = { ...s.tasks }
    for (const t of list) tasks[t.taskId] = { ...tasks[t.taskId], ...t }
    return { tasks }
  })
}
