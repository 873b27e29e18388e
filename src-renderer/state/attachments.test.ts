import { describe, expect, it } from 'vitest'
import { classify, roomFor } from './attachments'

const text = new TextEncoder().encode('export const a = 1\n')
const binary = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 1, 2])

describe('attachments in the message box', () => {
  it('takes images by type and text files by their bytes, whatever the browser calls them', () => {
    expect(classify('shot.png', 'image/png', 10, new Uint8Array())).toEqual({ mediaType: 'image/png' })
    // Chromium types .ts as video/mp2t: the bytes say it is text.
    expect(classify('a.ts', 'video/mp2t', 20, text)).toEqual({ mediaType: 'text/plain' })
    expect(classify('a.json', 'application/json', 20, text)).toEqual({ mediaType: 'application/json' })
  })

  it('refuses with one sentence that names the file and what to do', () => {
    expect(classify('report.pdf', 'application/pdf', 7, binary)).toEqual({ error: 'report.pdf is neither an image (PNG, JPEG, GIF, WebP) nor a text file, so it cannot be attached.' })
    expect(classify('huge.png', 'image/png', 6_000_000, new Uint8Array())).toEqual({ error: 'huge.png is larger than 5 MB, the most an image may be.' })
    expect(classify('dump.log', 'text/plain', 2_000_000, text)).toEqual({ error: 'dump.log is larger than 1 MB, the most a text file may be; mention it with @ instead and the agent reads what it needs.' })
    expect(classify('empty.txt', 'text/plain', 0, new Uint8Array())).toEqual({ error: 'empty.txt is empty, so there is nothing to attach.' })
    expect(roomFor(Array.from({ length: 10 }, () => ({ size: 1 })), 1)).toBe('A message takes at most 10 files.')
    expect(roomFor([{ size: 14_000_000 }], 2_000_000)).toBe('The files of one message may add up to 15 MB at most.')
    expect(roomFor([{ size: 1 }], 1)).toBeNull()
  })
})
