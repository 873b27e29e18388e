import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AgentEvent } from '../../src-shared'
import { approvalRecord } from '../testing/approval-record'
import { TaskClock } from './task-clock'

/** The child's clock counts its own work only (fake timers: exact, and independent of the machine's load). */
beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

const asked = (approvalId: string, depth = 0): AgentEvent => wrap({ type: 'tool_approval_required', sessionId: 's', at: 0, approval: approvalRecord({ id: approvalId }) }, depth)
const answered = (approvalId: string, depth = 0): AgentEvent => wrap({ type: 'tool_approval_resolved', sessionId: 's', at: 0, approvalId, outcome: 'approved' }, depth)
function wrap(e: AgentEvent, depth: number): AgentEvent {
  for (let i = 0; i < depth; i++) e = { type: 'subagent_event', sessionId: `g${i}`, at: 0, agentType: 'x', event: e }
  return e
}

describe('TaskClock', () => {
  it('fires after the limit of running time', () => {
    const fired = vi.fn()
    new TaskClock(1000, fired).start()
    vi.advanceTimersByTime(999)
    expect(fired).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(fired).toHaveBeenCalledOnce()
  })

  it('stands still while an approval or question of the child or a descendant is pending, however long', () => {
    const fired = vi.fn()
    const clock = new TaskClock(1000, fired)
    clock.start()
    vi.advanceTimersByTime(600)
    clock.observe(asked('a1'))
    clock.observe(asked('a2', 2)) // a grandchild asks too
    vi.advanceTimersByTime(10 * 60_000)
    clock.observe(answered('a1'))
    vi.advanceTimersByTime(10 * 60_000)
    expect(fired).not.toHaveBeenCalled()
    clock.observe(answered('a2', 2))
    expect(clock.paused).toBe(false)
    vi.advanceTimersByTime(399)
    expect(fired).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(fired).toHaveBeenCalledOnce()
  })

  it('stands still while the child waits for its own blocking children, and ignores other events', async () => {
    const fired = vi.fn()
    const clock = new TaskClock(1000, fired)
    clock.start()
    clock.observe({ type: 'content_delta', sessionId: 's', at: 0, messageId: 'm', partId: 'p', partType: 'text', delta: 'x' })
    let finish!: () => void
    const child = clock.pauseWhile(new Promise<void>((r) => (finish = r)))
    vi.advanceTimersByTime(5000)
    expect(fired).not.toHaveBeenCalled()
    finish()
    await child
    vi.advanceTimersByTime(1000)
    expect(fired).toHaveBeenCalledOnce()
  })

  it('never fires once stopped', () => {
    const fired = vi.fn()
    const clock = new TaskClock(1000, fired)
    clock.start()
    clock.stop()
    clock.observe(asked('a'))
    clock.observe(answered('a'))
    vi.advanceTimersByTime(5000)
    expect(fired).not.toHaveBeenCalled()
  })
})
