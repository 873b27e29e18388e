/**
 * Why a child run stopped, in two forms: the short reason on its card and signal (`aborted by parent`,
 * `timed out after 300s`), and the real cause the parent's model reads after `aborted: ` — for a child aborted
 * because an ancestor was, that is the ancestor's cause (the person stopped the session, a parent timed out).
 */
export interface AbortCause {
  /** what the parent's model reads after `aborted: ` */
  text: string
  /** the person stopped it (directly or an ancestor): its completion is stored but wakes nobody */
  byUser: boolean
  /** the host is shutting down: nothing may start any more */
  hostStopping?: boolean
  /** the child's own clock ran out after this many seconds (not an ancestor's): its result is incomplete, not failed */
  timeoutSeconds?: number
}

/** The reason a runner or the tasks panel aborts with when the person presses Stop. */
export const USER_STOP_REASON = 'aborted by user'
export const PARENT_ABORT_REASON = 'aborted by parent'
export const HOST_STOP_REASON = 'host stopping'
/** The client running the turn went away (Ctrl-C, SIGTERM of `agentry run`): like a Stop, nothing wakes. */
export const INTERRUPTED_REASON = 'interrupted: the agentry run command was stopped (Ctrl-C or SIGTERM)'

const USER_STOP: AbortCause = { text: 'stopped by the user', byUser: true }

/** The cause behind an abort reason that came from outside the subagents module (a runner's Stop, the host). */
export function causeOfReason(reason: unknown): AbortCause {
  if (reason === USER_STOP_REASON) return USER_STOP
  if (reason === INTERRUPTED_REASON) return { text: 'interrupted (the agentry run command was stopped)', byUser: true }
  if (reason === HOST_STOP_REASON) return { text: 'the host stopped', byUser: false, hostStopping: true }
  if (typeof reason === 'string') return { text: reason, byUser: false }
  if (reason instanceof Error && reason.name !== 'AbortError') return { text: reason.message, byUser: false }
  return USER_STOP
}

/** A child aborted because its parent was: the person's Stop stays the person's Stop; anything else names the parent. */
export function inheritedCause(parent: AbortCause): AbortCause {
  if (parent.byUser || parent.hostStopping) return parent
  if (parent.text.startsWith('parent aborted')) return { text: parent.text, byUser: false }
  return { text: `parent aborted (${parent.text})`, byUser: false }
}

export function timeoutCause(seconds: number): AbortCause {
  return { text: timeoutReason(seconds), byUser: false, timeoutSeconds: seconds }
}

export function timeoutReason(seconds: number): string {
  return `timed out after ${seconds}s`
}

/**
 * The cause of every aborted signal the subagents module owns, so a grandchild can name the real cause (signals
 * only carry a short reason). Signals of root runs are not here: their reason says it (see causeOfReason).
 */
export class AbortCauses {
  private readonly causes = new WeakMap<AbortSignal, AbortCause>()

  of(signal: AbortSignal): AbortCause {
    return this.causes.get(signal) ?? causeOfReason(signal.reason)
  }

  /** Aborts `controller` (first cause wins, as with the signal itself). */
  abort(controller: AbortController, reason: string, cause: AbortCause): void {
    if (controller.signal.aborted) return
    this.causes.set(controller.signal, cause)
    controller.abort(reason)
  }
}
