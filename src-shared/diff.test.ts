import { describe, expect, it } from 'vitest'
import { diffRows, diffTexts, unifiedDiff } from './diff'

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

describe('one change in a 600-line file', () => {
  const file = Array.from({ length: 600 }, (_, i) => `const value${i} = ${i} // line ${i + 1}`).join('\n') + '\n'
  const edited = file.replace('const value299 = 299', 'const value299 = 2990')

  it.each([
    ['host text, drawn by the UI', () => diffRows(unifiedDiff(file, edited, 'big.ts'))],
    ['computed in the UI', () => diffTexts(file, edited)],
  ])('is one removed and one added line with their line numbers (%s)', (_name, rows) => {
    const r = rows()
    expect(r.filter((x) => x.kind === 'del')).toEqual([{ kind: 'del', text: 'const value299 = 299 // line 300', oldNo: 300, newNo: null }])
    expect(r.filter((x) => x.kind === 'add')).toEqual([{ kind: 'add', text: 'const value299 = 2990 // line 300', oldNo: null, newNo: 300 }])
    expect(r.filter((x) => x.kind === 'ctx')).toHaveLength(6)
    expect(r[0]).toMatchObject({ kind: 'hunk', text: '@@ -297,7 +297,7 @@' })
    expect(r[1]).toMatchObject({ kind: 'ctx', oldNo: 297, newNo: 297 })
  })
})

describe('diffRows', () => {
  it('numbers the removed lines of an overwrite (what the write_file approval shows)', () => {
    const rows = diffRows(unifiedDiff('one\ntwo\nthree\n', 'one\nTWO\n', 'notes.md'))
    expect(rows.map((r) => [r.kind, r.text, r.oldNo, r.newNo])).toEqual([
      ['hunk', '@@ -1,3 +1,2 @@', null, null],
      ['ctx', 'one', 1, 1],
      ['del', 'two', 2, null],
      ['del', 'three', 3, null],
      ['add', 'TWO', null, 2],
    ])
  })

  it('keeps a note the host appended after a cut diff', () => {
    const rows = diffRows('--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n+b\n… [diff cut; read the file to see the rest]')
    expect(rows.at(-1)).toEqual({ kind: 'note', text: '… [diff cut; read the file to see the rest]', oldNo: null, newNo: null })
  })

  it('shows a hand-written diff whose hunk counts do not add up by its markers, without line numbers', () => {
    const rows = diffRows('@@ -1,3 +1,3 @@\n a\n-b\n+c')
    expect(rows.map((r) => r.kind)).toEqual(['hunk', 'ctx', 'del', 'add'])
    expect(rows.every((r) => r.oldNo === null && r.newNo === null)).toBe(true)
  })

  it('says when only the final newline changed', () => {
    const rows = diffRows(unifiedDiff('a\nb', 'a\nb\n', 'f'))
    expect(rows.some((r) => r.kind === 'note' && r.text.includes('No newline at end of file'))).toBe(true)
  })
})
