import { describe, expect, it } from 'vitest'
import { withoutStall } from './event-loop'

describe('withoutStall', () => {
  it('fails for work that holds the event loop, passes for work that waits', async () => {
    await expect(withoutStall(async () => {
      const end = Date.now() + 400
      while (Date.now() < end) Math.sqrt(end)
    }, 1)).rejects.toThrow(/^the event loop stalled for \d+\.\d ms/)
    const { maxMs } = await withoutStall(() => new Promise((resolve) => setTimeout(resolve, 100)))
    expect(maxMs).toBeGreaterThanOrEqual(0)
  })
})
