import type { AgentEvent } from '../../src-shared'
import { taskStatusText, toolCallCountsText } from '../../src-shared/task-card'
import type { TaskCardSummary } from './task-view'
import { toolTitle } from './tool-view'

const MAX_LINES = 30

/**
 * What a running subagent (and everything below it) is doing, as lines for its task call in the editor: each tool
 * call and each nested subagent once, updated in place, indented by depth; plus the tail of what the child writes.
 */
export class TaskProgress {
  card?: TaskCardSummary
  private readonly order: string[] = []
  private readonly lines = new Map<string, string>()
  writing = ''

  /** `event` happened `depth` levels below the task's child (0 = the child itself), in session `sessionId`. */
  onChildEvent(event: AgentEvent, depth: number): boolean {
    const pad = '  '.repeat(depth)
    switch (event.type) {
      case 'tool_call_start':
        if (event.toolName === 'task' || event.toolName === 'todo') return false
        this.set(`${event.sessionId}:${event.toolCallId}`, `${pad}▸ ${toolTitle(event.toolName, event.input)}`)
        return true
      case 'tool_call_end': {
        const key = `${event.sessionId}:${event.toolCallId}`
        const line = this.lines.get(key)
        if (!line) return false
        this.set(key, line.replace('▸', event.ok ? '✓' : '✗'))
        return true
      }
      case 'task_update': {
        const t = event.task
        const stopped = t.status === 'aborted' && t.stoppedByUser === true
        const mark = t.status === 'completed' ? '✓' : stopped ? '■' : t.status === 'failed' || t.status === 'aborted' ? '✗' : '▸'
        const calls = toolCallCountsText(t.toolCalls)
        this.set(`${event.sessionId}:${event.toolCallId}`, `${pad}${mark} ${t.agentType}: ${t.description} · ${taskStatusText(t)}${calls ? ` · ${calls}` : ''}`)
        return true
      }
      case 'content_delta':
        if (depth !== 0 || event.partType !== 'text') return false
        this.writing = (this.writing + event.delta).slice(-2_000)
        return true
      case 'message_created':
        if (depth === 0 && event.message.role === 'assistant') this.writing = ''
        return false
      default:
        return false
    }
  }

  snapshot(): string[] {
    const shown = this.order.slice(-MAX_LINES).map((k) => this.lines.get(k) ?? '')
    return this.order.length > MAX_LINES ? [`… ${this.order.length - MAX_LINES} earlier`, ...shown] : shown
  }

  private set(key: string, line: string): void {
    if (!this.lines.has(key)) this.order.push(key)
    this.lines.set(key, line)
  }
}
