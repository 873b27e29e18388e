/**
 * Hostile YAML for tests of the bounded parser. `aliasBomb()` is the classic "billion laughs": each line holds
 * nine aliases of the line above, so expanding line h means 9^8 ≈ 43 million strings.
 */
export function aliasBomb(key = 'a'): string {
  const names = 'bcdefgh'.split('')
  const lines = [`${key}: &${key} ["x","x","x","x","x","x","x","x","x"]`]
  let prev = key
  for (const n of names) {
    lines.push(`${n}${key}: &${n}${key} [${Array(9).fill(`*${prev}`).join(',')}]`)
    prev = `${n}${key}`
  }
  return `${lines.join('\n')}\n`
}

/** Line (1-based, within the bomb's own text) of the first alias. */
export const ALIAS_BOMB_FIRST_ALIAS_LINE = 2
