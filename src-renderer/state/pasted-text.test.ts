import { describe, expect, it } from 'vitest'
import { expandPastes, pasteToken, pastesIn, shouldCollapse } from './pasted-text'

const log = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1} $& $1 ${'x'.repeat(10)}`).join('\n')

describe('long pastes in the message box', () => {
  it('collapses past 30 lines or 3,000 characters; a short paste goes in as typed', () => {
    expect(shouldCollapse(log(30))).toBe(false)
    expect(shouldCollapse(log(31))).toBe(true)
    expect(shouldCollapse('y'.repeat(3001))).toBe(true)
    expect(pasteToken(1, log(1204))).toBe('[Pasted text #1, 1,204 lines]')
    expect(pasteToken(2, 'y'.repeat(5000))).toBe('[Pasted text #2, 5,000 characters]')
  })

  it('sends each paste whole in place of its token, byte for byte ($& and $1 included); a deleted token drops its paste', () => {
    const a = log(100)
    const b = log(40)
    const pastes = new Map([
      [1, a],
      [2, b],
    ])
    const typed = `Why does this fail?\n${pasteToken(1, a)}\nand this: ${pasteToken(2, b)}`
    expect(expandPastes(typed, pastes)).toBe(`Why does this fail?\n${a}\nand this: ${b}`)
    const without = `Why? ${pasteToken(2, b)}`
    expect(pastesIn(without, pastes).map((p) => p.id)).toEqual([2])
    expect(expandPastes(without, pastes)).toBe(`Why? ${b}`)
  })
})
