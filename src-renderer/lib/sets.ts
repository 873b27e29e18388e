/** A copy of `set` with `value` added, or removed if it was there (for checkbox and expand state). */
export function toggled<T>(set: ReadonlySet<T>, value: T): Set<T> {
  const next = new Set(set)
  if (next.has(value)) next.delete(value)
  else next.add(value)
  return next
}
