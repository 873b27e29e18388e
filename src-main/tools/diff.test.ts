import { describe, expect, it } from 'vitest'
import { unifiedDiff } from './diff'

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', 'f.txt')).toBe('')
  })

  it('shows a changed line with 3 lines of context and correct hunk numbers', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n') + '\n'
    const after = before.replace('5', 'five')
    expect(unifiedDiff(before, after, 'n.txt')).toBe(
      ['--- a/n.txt', '+++ b/n.txt', '@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8'].join('\n'),
    )
  })

  it('shows a new file as all additions and separate hunks for distant changes', () => {
    expect(unifiedDiff('', 'x\ny\n', 'new.txt')).toBe(['--- a/new.txt', '+++ b/new.txt', '@@ -0,0 +1,2 @@', '+x', '+y'].join('\n'))
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`)
    const changed = [...lines]
    changed[1] = 'LINE 2'
    changed[25] = 'LINE 26'
    const diff = unifiedDiff(lines.join('\n'), changed.join('\n'), 'f')
    expect(diff.match(/^@@/gm)).toHaveLength(2)
    expect(diff).toContain('@@ -1,5 +1,5 @@')
    expect(diff).toContain('@@ -23,7 +23,7 @@')
  })
})
