import type { AgentEvent, SequencedEvent } from '../../src-shared'
import { formatDuration } from '../subagents'

const DIM = '\x1b[2m'
const RESET = '\x1b[0m'
const GREEN = '\x1b[32m'
const RED = '\x1b[31m'
const CYAN = '\x1b[36m'

/** The compact TTY view of a headless run: one line per subagent start/finish, indented by depth. */
export class ProgressView {
  private readonly seen = new Map<string, string>()

  constructor(private readonly out: NodeJS.WritableStream) {}

  onEvent(e: SequencedEvent): void {
    this.visit(e.event, 0)
  }

  done(): void {}

  private visit(event: AgentEvent, depth: number): void {
    if (event.type === 'subagent_event') return this.visit(event.event, depth + 1)
    const pad = '  '.repeat(depth)
    if (event.type === 'task_update') {
      const t = event.task
      if (this.seen.get(t.taskId) === t.status) return
      this.seen.set(t.taskId, t.status)
      const label = `${CYAN}${t.agentType}${RESET} ${t.description}${t.background ? `${DIM} (background)${RESET}` : ''}`
      if (t.status === 'queued') this.line(`${pad}${DIM}…${RESET} ${label} ${DIM}queued${RESET}`)
      else if (t.status === 'running') this.line(`${pad}${DIM}▸${RESET} ${label}`)
      else {
        const ok = t.status === 'completed'
        const took = t.startedAt && t.endedAt ? formatDuration(t.endedAt - t.startedAt) : ''
        const stats = `${DIM}${took} · ${t.steps} steps · ${t.tokensIn + t.tokensOut} tokens${RESET}`
        this.line(`${pad}${ok ? `${GREEN}✓` : `${RED}✗`}${RESET} ${label} ${stats}${ok ? '' : ` ${RED}${t.error ?? t.status}${RESET}`}`)
      }
    } else if (event.type === 'tool_call_end' && event.toolName !== 'task' && !event.ok) {
      this.line(`${pad}${RED}✗${RESET} ${event.toolName}: ${firstLine(event.output)}`)
    } else if (event.type === 'status_change' && event.status === 'retrying' && depth === 0) {
      this.line(`${DIM}retrying: ${event.reason ?? ''}${RESET}`)
    }
  }

  private line(s: string): void {
    this.out.write(`${s}\n`)
  }
}

function firstLine(s: string): string {
  const l = s.split('\n')[0]
  return l.length > 160 ? `${l.slice(0, 157)}…` : l
}
