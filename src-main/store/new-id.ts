import { randomBytes } from 'node:crypto'

export type IdPrefix = 'ses' | 'msg' | 'prt' | 'apr' | 'rul' | 'job' | 'que' | 'cpt'

// ASCII order, so that string comparison of ids equals numeric comparison of their parts.
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_LEN = 14

let lastMs = -1
let lastRandom: number[] = []

function freshRandom(): number[] {
  const bytes = randomBytes(RANDOM_LEN)
  const digits = new Array<number>(RANDOM_LEN)
  // Keep the first digit in the lower half so same-ms increments never overflow in practice.
  digits[0] = bytes[0] % 31
  for (let i = 1; i < RANDOM_LEN; i++) digits[i] = bytes[i] % 62
  return digits
}

/** Adds one to a base62 digit array; false on overflow. */
function increment(digits: number[]): boolean {
  for (let i = digits.length - 1; i >= 0; i--) {
    if (digits[i] < 61) {
      digits[i]++
      return true
    }
    digits[i] = 0
  }
  return false
}

/**
 * `${prefix}_` + 12 hex chars of the ms timestamp + 14 base62 chars.
 * Ids created in the same millisecond (or while the clock steps back) reuse the last
 * timestamp and increment the random part, so ids always sort in creation order.
 */
export function newId(prefix: IdPrefix | string): string {
  let ms = Date.now()
  if (ms <= lastMs) {
    ms = lastMs
    if (!increment(lastRandom)) {
      ms = lastMs + 1
      lastRandom = freshRandom()
    }
  } else {
    lastRandom = freshRandom()
  }
  lastMs = ms
  let random = ''
  for (const d of lastRandom) random += BASE62[d]
  return `${prefix}_${ms.toString(16).padStart(12, '0')}${random}`
}
