import type { AgentEvent, SequencedEvent, SessionStatus } from '../../src-shared'
import { foldEvent } from '../../src-shared/event-fold'
import type { BridgeClient } from '../../src-shared/bridge-client'

export interface RunEnd {
  /** the root's last turn */
  final?: { text: string; finishReason: string }
  lastError?: { code: string; message: string }
}

const BUSY = new Set<SessionStatus>(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])

/**
 * Follows one root session's run through its event stream until everything it started has finished: its turns and
 * every background child (whose result starts another turn of the parent). The events say when the run may be over;
 * the host's own answer (`tasks.list`, then `sessions.get`) confirms it — in that order, because a background child
 * marks its parent busy before its own job is marked done. `afterSeq`: a session gone on with, its earlier turns unseen.
 */
export function watchRun(api: BridgeClient, sessionId: string, onEvent: (e: SequencedEvent) => void, afterSeq = 0): { done: Promise<RunEnd>; dispose(): void } {
  const end: RunEnd = {}
  let turns = 0
  let rootBusy = false
  const background = new Map<string, boolean>()
  let checking = false
  let recheck = false
  let finished = false
  let dispose = (): void => {}

  const done = new Promise<RunEnd>((resolve, reject) => {
    const finish = (err?: unknown): void => {
      if (finished) return
      finished = true
      dispose()
      if (err) reject(err)
      else resolve(end)
    }
    const mayBeOver = (): boolean => turns > 0 && !rootBusy && ![...background.values()].some(Boolean)
    const check = async (): Promise<void> => {
      if (checking) {
        recheck = true
        return
      }
      checking = true
      try {
        do {
          recheck = false
          const { tasks } = await api.calls['tasks.list']({ rootSessionId: sessionId })
          if (tasks.some((t) => t.status === 'running')) continue
          const { session } = await api.calls['sessions.get']({ sessionId })
          if (!BUSY.has(session.status) && mayBeOver()) return finish()
        } while (recheck && !finished)
      } catch (err) {
        finish(err)
      } finally {
        checking = false
      }
    }
    const visit = (event: AgentEvent): void => {
      const { leaf: e } = foldEvent(event)
      if (e.type === 'task_update' && e.task.background) background.set(e.task.taskId, e.task.status === 'queued' || e.task.status === 'running')
    }
    const unsubscribe = api.subscribe(
      { sessionId, afterSeq },
      (m) => {
        if (m.kind === 'resync') return finish(new Error(`lost the event stream of ${sessionId}: ${m.reason}`))
        if (m.kind !== 'event') return
        onEvent(m.event)
        const e = m.event.event
        visit(e)
        if (e.sessionId === sessionId && e.type === 'status_change') rootBusy = BUSY.has(e.status)
        if (e.sessionId === sessionId && e.type === 'error') end.lastError = { code: e.code, message: e.message }
        if (e.sessionId === sessionId && e.type === 'turn_complete') {
          turns++
          end.final = { text: e.text, finishReason: e.finishReason }
        }
        if (mayBeOver()) void check()
      },
      (err) => finish(err),
    )
    dispose = unsubscribe
    void api.closed.then(() => finish(new Error('The Agentry host stopped during the run.')))
  })
  return { done, dispose: () => dispose() }
}
