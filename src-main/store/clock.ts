let last = 0

/**
 * Date.now(), but strictly increasing within this process, so "newest updated first" is exact
 * even when several sessions change in the same millisecond.
 */
export function monotonicNow(): number {
  const now = Date.now()
  last = now > last ? now : last + 1
  return last
}
