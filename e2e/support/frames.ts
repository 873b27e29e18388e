import type { Page } from 'playwright-core'

export type FrameFigures = { frames: number; seconds: number; p50: number; p95: number; p99: number; max: number }

/**
 * The page's frame times while `work` runs: the gaps between requestAnimationFrame callbacks, in ms (16.7 at 60 Hz;
 * a frame the page could not draw in time shows as a longer gap, in whole frames).
 */
export async function frameTimes(page: Page, work: () => Promise<void>): Promise<FrameFigures> {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stopFrames: boolean }
    w.__frames = []
    w.__stopFrames = false
    const tick = (t: number) => {
      w.__frames.push(t)
      if (!w.__stopFrames) requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
  await work()
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __stopFrames: boolean }
    w.__stopFrames = true
    return w.__frames
  })
  const gaps = frames
    .slice(1)
    .map((t, i) => t - frames[i])
    .sort((a, b) => a - b)
  const at = (q: number) => Math.round(gaps[Math.min(gaps.length - 1, Math.floor(q * gaps.length))] * 10) / 10
  return { frames: gaps.length, seconds: Math.round((frames[frames.length - 1] - frames[0]) / 100) / 10, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) }
}
