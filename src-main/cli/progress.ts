import type { LeafEvent, SequencedEvent } from '../../src-shared'
import type { BudgetView } from '../../src-shared/budget'
import { describeSpend } from '../../src-shared/budget-text'
import { foldEvent } from '../../src-shared/event-fold'
import { formatDuration } from '../../src-shared/duration'

const COLORS = { DIM: '\x1b[2m', RESET: '\x1b[0m', GREEN: '\x1b[32m', RED: '\x1b[31m', CYAN: '\x1b[36m' }
const PLAIN = { DIM: '', RESET: '', GREEN: '', RED: '', CYAN: '' }

/**
 * The compact view of a headless run on stderr: one line per subagent start/finish, indented by depth, and
 * every failed tool call (so a headless permission denial and how to lift it is never silent). Colours only
 * on a terminal, so logs and pipes stay plain text.
 */
export class ProgressView {
  private readonly seen = new Map<string, string>()
  private readonly c: typeof COLORS

  /** said once, when the first bash command starts (where it runs and what it can reach) */
  private sandboxNote: string | undefined
  /** the 80 % budget warning: said once per run */
  private budgetWarned = false

  constructor(
    private readonly out: NodeJS.WritableStream,
    color: boolean,
    sandboxNote?: string,
  ) {
    this.sandboxNote = sandboxNote
    this.c = color ? COLORS : PLAIN
  }

  onEvent(e: SequencedEvent): void {
    const { leaf, depth } = foldEvent(e.event)
    this.show(leaf, depth)
  }

  private show(event: LeafEvent, depth: number): void {
    const { DIM, RESET, GREEN, RED, CYAN } = this.c
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
    } else if (event.type === 'tool_call_start' && event.toolName === 'bash' && this.sandboxNote) {
      this.line(`${DIM}${this.sandboxNote}${RESET}`)
      this.sandboxNote = undefined
    } else if (event.type === 'tool_call_end' && event.toolName !== 'task' && !event.ok) {
      this.line(`${pad}${RED}✗${RESET} ${event.toolName}: ${firstLine(event.output)}`)
    } else if (event.type === 'session_updated' && depth === 0 && !this.budgetWarned) {
      // The run's spend against its budget (--max-cost, the session's, the day's): one line at 80 %.
      const b = event.session.metadata.budget as BudgetView | undefined
      if (b && typeof b === 'object' && b.warning && !b.reached && b.limit && b.spent) {
        this.budgetWarned = true
        this.line(`${DIM}budget: over 80% spent — ${describeSpend(b.limit, b.spent)}${b.owner ? ` (${b.owner})` : ''}${RESET}`)
      }
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
  return l.length > 400 ? `${l.slice(0, 397)}…` : l
}
