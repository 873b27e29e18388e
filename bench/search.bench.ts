/**
 * Message search benchmark (issue 14): the sidebar's full-text query over 1,000,000 text parts.
 * Builds 10,000 sessions with 1,000,000 text parts of ~24 words each (a 20,000-word vocabulary, Zipf-like, so common
 * and rare words both occur), indexes them (migration v2's FTS5 table), then times `searchMessages` — what
 * `sessions.search` runs — for a rare word, a common word, a prefix while typing, two words, a long word and a long
 * prefix (longer than the indexed prefixes), and no match.
 * Run: `npx tsx bench/search.bench.ts` (prints one JSON object). The bench runner imports run().
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { PartRecord } from '../src-shared'
import { newId, openStore, type Store } from '../src-main/store'
import { percentile, round, runIfMain } from './stats'

const SESSIONS = 10_000
const PARTS = 1_000_000
const PARTS_PER_MESSAGE = 5
const WORDS_PER_PART = 24
const VOCABULARY = 20_000
const QUERIES_EACH = 100
const RARE = 'quokkaberry'
const RARE_EVERY = 50_000

/** A deterministic generator, so every run searches the same text. */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'zi', 'pe', 'sa', 'di', 'gu', 'ho', 'ji', 'fe', 'bu']
function word(i: number): string {
  let w = ''
  let n = i + 16
  while (n > 0) {
    w += syllables[n % 16]
    n = Math.floor(n / 16)
  }
  return w
}

function build(store: Store): { ms: number; indexMs: number } {
  const words = Array.from({ length: VOCABULARY }, (_, i) => word(i))
  const random = rng(14)
  // Zipf-like: index ≈ V^u, so low indexes (common words) come up far more often.
  const pick = () => words[Math.min(VOCABULARY - 1, Math.floor(VOCABULARY ** random()) - 1)]
  const started = performance.now()
  const sessions = store.transaction(() =>
    Array.from({ length: SESSIONS }, (_, i) => store.sessions.createSession({ agent: 'build', workspaceRoot: '/bench/search', title: `Session ${i}` }).id),
  )
  let parts = 0
  let message = 0
  while (parts < PARTS) {
    const messages = store.transaction(() =>
      Array.from({ length: 1_000 }, () => store.transcript.createMessage({ sessionId: sessions[message++ % SESSIONS], role: message % 2 ? 'user' : 'assistant' })),
    )
    for (const m of messages) {
      for (let k = 0; k < PARTS_PER_MESSAGE && parts < PARTS; k++) {
        const text = Array.from({ length: WORDS_PER_PART }, pick)
        if (parts % RARE_EVERY === 0) text[5] = RARE
        const part: PartRecord = { id: newId('prt'), messageId: m.id, sessionId: m.sessionId, index: k, type: 'text', data: { text: text.join(' ') }, toolCallId: null, toolState: null }
        store.transcript.upsertPart(part)
        parts++
      }
    }
    store.flush()
  }
  const built = performance.now()
  store.search.indexPending()
  return { ms: built - started, indexMs: performance.now() - built }
}

export async function run(): Promise<Record<string, unknown>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-search-bench-'))
  const file = path.join(dir, 'agentry.db')
  try {
    const store = openStore(file, { maxBuffered: 20_000 })
    const { ms, indexMs } = build(store)
    const queries: Record<string, string> = {
      rare: RARE,
      common: word(0),
      prefix: word(300).slice(0, 3),
      twoWords: `${word(2)} ${word(40)}`,
      // longer than the indexed prefixes: the exact word first, then the prefix
      longWord: word(240),
      longPrefix: word(240).slice(0, 5),
      none: 'nosuchwordanywhere',
    }
    const figures: Record<string, unknown> = {}
    const all: number[] = []
    for (const [name, query] of Object.entries(queries)) {
      const times: number[] = []
      let hits = 0
      for (let i = 0; i < QUERIES_EACH; i++) {
        const t = performance.now()
        hits = store.search.searchMessages({ query, workspaceRoot: '/bench/search', limit: 30 }).length
        times.push(performance.now() - t)
      }
      all.push(...times)
      figures[name] = { query, hits, p50Ms: round(percentile(times, 50), 2), p99Ms: round(percentile(times, 99), 2) }
    }
    store.close()
    return {
      bench: 'search',
      sessions: SESSIONS,
      parts: PARTS,
      buildMs: Math.round(ms),
      indexMs: Math.round(indexMs),
      queries: QUERIES_EACH * Object.keys(queries).length,
      p50Ms: round(percentile(all, 50), 2),
      p99Ms: round(percentile(all, 99), 2),
      targetP99Ms: 50,
      ...figures,
      dbMb: round(fs.statSync(file).size / 1e6, 1),
      loadAvg1m: round(os.loadavg()[0], 2),
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
