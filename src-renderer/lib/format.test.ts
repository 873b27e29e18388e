import { describe, expect, it } from 'vitest'
import { formatBytes } from './format'

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [812, '812 B'],
    [1024, '1.0 KB'],
    [4300, '4.2 KB'],
    [38_797_312, '37 MB'],
    [1.3 * 1024 ** 3, '1.3 GB'],
    [-1, '–'],
  ])('%d → %s', (n, text) => expect(formatBytes(n)).toBe(text))
})
