import type { ApprovalRecord } from './approval'
import type { SessionStatus } from './session'

/**
 * When Agentry raises an OS notification — decided here, without the DOM or Electron, so it is tested and both apps
 * say the same: the browser app (daemon mode, src-renderer/state/browser-notifications.ts) and the desktop app's main
 * process (src-main/electron/notifications.ts, from the host's feed):
 * - once per pending decision, and only if the window was unfocused when it arrived (one that came while the person
 *   looked is never announced later); a resync snapshot that delivers the same approvals again is no news, and the
 *   first snapshot after loading the page is what the person is about to see, so it is only remembered;
 * - when a conversation's run (its root's turn) took at least LONG_RUN_MS and ended while the window was unfocused.
 */

export const LONG_RUN_MS = 30_000

export type Notice = {
  /** one notification per tag: a second one with the same tag replaces the first */
  tag: string
  title: string
  body: string
  /** what clicking it opens */
  rootSessionId: string
  workspaceRoot: string | null
}

type Turn = { start: number; running: boolean }

/** Statuses in which a session is running a turn (waiting on the person is still the same turn): Stop applies. */
const RUNNING: ReadonlySet<string> = new Set<SessionStatus>(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])

export const isRunningStatus = (status: string | null | undefined): boolean => status != null && RUNNING.has(status)

export type TurnFinishReason = 'stop' | 'max_steps' | 'aborted' | 'error' | 'budget'

const FINISHED: Record<TurnFinishReason, string> = {
  stop: 'Run finished',
  max_steps: 'Run stopped at the step limit',
  aborted: 'Run stopped',
  error: 'Run failed',
  budget: 'Run stopped at its budget',
}

export class NotifyPolicy {
  private readonly seen = new Set<string>()
  private primed = false
  private readonly turns = new Map<string, Turn>()

  /**
   * Approvals delivered live (an event) or again (a snapshot after a reconnect): the ones worth a notification now.
   * `snapshot`: the first one only primes what is already known.
   */
  approvals(list: ApprovalRecord[], o: { focused: boolean; snapshot?: boolean }): Notice[] {
    const quiet = o.focused || (o.snapshot === true && !this.primed)
    if (o.snapshot) this.primed = true
    const out: Notice[] = []
    for (const a of list) {
      if (a.status !== 'pending' || this.seen.has(a.id)) continue
      this.seen.add(a.id)
      if (!quiet) out.push(approvalNotice(a))
    }
    return out
  }

  /** An answered approval: nothing will deliver it again, so it need not be remembered. */
  resolved(approvalId: string): void {
    this.seen.delete(approvalId)
  }

  /**
   * A conversation's root changed status: a turn starts when it goes from not running to running (waiting on the
   * person is still the same turn). It ends with turnComplete, which may come before or after the idle status.
   */
  rootStatus(rootSessionId: string, status: SessionStatus, at: number): void {
    const t = this.turns.get(rootSessionId)
    if (isRunningStatus(status)) {
      if (!t || !t.running) this.turns.set(rootSessionId, { start: at, running: true })
    } else if (t) t.running = false
  }

  /** A conversation's root finished its turn: worth a notification if it was long and nobody watched. */
  turnComplete(
    rootSessionId: string,
    e: { at: number; finishReason: TurnFinishReason; text: string; title?: string | null; workspaceRoot?: string | null },
    focused: boolean,
  ): Notice | null {
    const t = this.turns.get(rootSessionId)
    this.turns.delete(rootSessionId)
    if (!t || focused || e.at - t.start < LONG_RUN_MS) return null
    const text = e.text.trim().replace(/\s+/g, ' ')
    const said = text === '' ? 'Open Agentry to see the result.' : text.length > 140 ? `${text.slice(0, 139)}…` : text
    return {
      tag: `run:${rootSessionId}:${e.at}`,
      title: FINISHED[e.finishReason],
      body: e.title ? `${e.title}: ${said}` : said,
      rootSessionId,
      workspaceRoot: e.workspaceRoot ?? null,
    }
  }
}

/** In words: who asks, for what, and in which conversation. */
export function approvalNotice(a: ApprovalRecord): Notice {
  const who = a.agentPath.length ? a.agentPath.join(' › ') : 'An agent'
  const x = a.arguments
  const what =
    a.kind === 'question'
      ? `${who} asks: ${x.question ?? 'a question'}`
      : a.kind === 'plan'
        ? `${who} has a plan for you to approve`
        : a.kind === 'budget'
          ? `${who}: ${x.summary ?? 'a budget needs your decision'}`
          : `${who} wants to run ${a.toolName}${typeof x.input?.command === 'string' ? `: ${x.input.command}` : ''}`
  const where = a.conversationTitle ? `\n${a.conversationTitle}` : ''
  const title = a.kind === 'question' ? 'Agentry: a question for you' : 'Agentry: approval needed'
  return { tag: a.id, title, body: `${clip(what, 160)}${where}`, rootSessionId: a.rootSessionId, workspaceRoot: a.workspaceRoot ?? null }
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s)
