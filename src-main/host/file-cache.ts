import fs from 'node:fs'

/**
 * Memoizes what was loaded from a set of files until one of them changes (mtime, size, or appears/disappears).
 * Checking costs one stat per file, so config and permission files can be consulted on every tool call.
 */
export function cachedByFiles<T>(load: (files: string[]) => T): (files: string[]) => T {
  const cache = new Map<string, { stamp: string; value: T }>()
  return (files) => {
    const key = files.join('\n')
    const stamp = files.map(stampOf).join('|')
    const hit = cache.get(key)
    if (hit && hit.stamp === stamp) return hit.value
    const value = load(files)
    cache.set(key, { stamp, value })
    return value
  }
}

function stampOf(file: string): string {
  // throwIfNoEntry: a missing file is the common case (no project config) and on the hot path (every subagent
  // spawn); building an ENOENT exception per check cost more than the stat itself.
  const st = fs.statSync(file, { throwIfNoEntry: false })
  return st ? `${st.mtimeMs}:${st.size}` : 'none'
}
