import fs from 'node:fs'
import path from 'node:path'
import { isMainThread, parentPort, workerData } from 'node:worker_threads'
import type { BatchResult, FromWorker, GrepFile, ToWorker } from './grep-protocol'

/**
 * grep's search worker: reads the files the host checked and matches them, off the host's event loop.
 *
 * The regex engine is RE2 (re2js): linear time in the input, so no pattern can hang it, and a worker thread, so even a
 * long search never stalls the host (every session, the bridge, the UI). Reads are synchronous on purpose: in a worker
 * they block nothing, and they are about twice as fast as promise-based reads for thousands of small files.
 *
 * Node runs this file directly as the worker (type stripping in development, a bundle entry in builds), so it imports
 * only packages, Node built-ins and types — no relative modules. The host also imports it for `looksBinary`.
 */

const SNIFF_BYTES = 8_192
/** The first read of every file; a file that fills it is stat'ed and read on. */
const FIRST_READ = 64 * 1024
/** Reused for every file that fits the first read (a 1 MB file reuses it too). */
const scratch = Buffer.allocUnsafe(1024 * 1024)

/** Control characters beyond these in text: tab, LF, VT, FF, CR and ESC (ANSI colours in logs) are text. */
const CONTROL = new Uint8Array(256).map((_, b) => (b < 32 && b !== 9 && b !== 10 && b !== 11 && b !== 12 && b !== 13 && b !== 27 ? 1 : 0))
const RATIO_BYTES = 1_024

/**
 * A NUL byte in the first 8 KB, or mostly control characters in its first 1 KB, means the file is not text. (The
 * NUL search is native; the byte-by-byte count stays short because grep runs it on every file it reads.)
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false
  if (sample.indexOf(0) !== -1) return true
  const head = sample.subarray(0, RATIO_BYTES)
  let control = 0
  for (let i = 0; i < head.length; i++) control += CONTROL[head[i]]
  return control / head.length > 0.1
}

/**
 * Does the pattern use lookaround or a backreference — what RE2 leaves out to stay linear? Checked before RE2 sees
 * it, escapes and character classes skipped: the JavaScript-to-RE2 translation would otherwise turn `\k<n>` into a
 * plain `k<n>` and search for something else than was asked.
 */
function unsupported(pattern: string): boolean {
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]
    if (ch === '\\') {
      const next = pattern[i + 1] ?? ''
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))) return true
      i++
    } else if (inClass) {
      if (ch === ']') inClass = false
    } else if (ch === '[') {
      inClass = true
    } else if (ch === '(' && /^\(\?<?[=!]/.test(pattern.slice(i, i + 4))) {
      return true
    }
  }
  return false
}

/** No regex metacharacters: searched as bytes, the fast path. */
const LITERAL = /^[^\\^$.|?*+()[\]{}]+$/

/** Anchors and flag groups that mean something else on a whole file than on one line: no whole-file prefilter. */
const LINE_SENSITIVE = /\$|\\[AzZ]|\(\?[a-zA-Z-]+[):]/

type Re = { test(input: string | Uint8Array): boolean }

interface Matcher {
  /** does this file possibly match (a cheap whole-file test), or true when no such test is sound */
  mayMatch(buf: Uint8Array): boolean
  /** the 0-based byte offsets of matching lines' starts, each with its end, in order; stops early when told */
  eachLine(buf: Uint8Array, onLine: (start: number, end: number) => boolean, outOfTime: () => boolean): void
}

const PROC_FD = process.platform === 'linux' && fs.existsSync('/proc/self/fd')
const { O_RDONLY } = fs.constants
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0

function errorCode(e: unknown): string | undefined {
  return e instanceof Error ? (e as NodeJS.ErrnoException).code : undefined
}

const { O_DIRECTORY } = fs.constants

/**
 * The folder the last file was opened from. On Linux each folder is opened once and proven to be the checked real
 * folder (its descriptor's path); its files are then opened through the descriptor (`/proc/self/fd/N/name`, like
 * `openat`) with O_NOFOLLOW, so a file can only come from that folder — one proof per folder instead of per file.
 */
const folder = { path: '', fd: -1, changed: false }

function closeFolder(): void {
  if (folder.fd >= 0) fs.closeSync(folder.fd)
  Object.assign(folder, { path: '', fd: -1, changed: false })
}

/** Opens the checked real path `abs` for reading; null when it is not (any more) the file that was checked. */
function openChecked(abs: string): number | null {
  if (!PROC_FD) {
    // Elsewhere: open by path, then compare the opened inode with the one at the (still real) path.
    const fd = fs.openSync(abs, O_RDONLY | O_NOFOLLOW)
    const opened = fs.fstatSync(fd)
    const now = fs.statSync(abs)
    if (fs.realpathSync(abs) === abs && opened.ino === now.ino && opened.dev === now.dev) return fd
    fs.closeSync(fd)
    return null
  }
  const dir = path.dirname(abs)
  if (dir !== folder.path) {
    closeFolder()
    try {
      folder.fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    } catch (e) {
      const code = errorCode(e)
      // A folder replaced by a link since the walk (ELOOP/ENOTDIR); any other error (deleted: ENOENT) is the file's.
      if (code !== 'ELOOP' && code !== 'ENOTDIR') throw e
      folder.changed = true
    }
    folder.path = dir
    if (folder.fd >= 0) folder.changed = fs.readlinkSync(`/proc/self/fd/${folder.fd}`) !== dir
  }
  if (folder.changed) return null
  return fs.openSync(`/proc/self/fd/${folder.fd}/${path.basename(abs)}`, O_RDONLY | O_NOFOLLOW)
}

function literalMatcher(pattern: string): Matcher {
  const needle = Buffer.from(pattern, 'utf8')
  return {
    mayMatch: (buf) => Buffer.from(buf.buffer, buf.byteOffset, buf.length).includes(needle),
    eachLine(bytes, onLine) {
      const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
      for (let at = buf.indexOf(needle); at !== -1; ) {
        const start = at === 0 ? 0 : buf.lastIndexOf(10, at - 1) + 1
        const nl = buf.indexOf(10, at)
        const end = nl === -1 ? buf.length : nl
        if (!onLine(start, end)) return
        at = nl === -1 ? -1 : buf.indexOf(needle, nl + 1)
      }
    },
  }
}

function regexMatcher(line: Re, file: Re | null): Matcher {
  return {
    mayMatch: (buf) => (file ? file.test(buf) : true),
    eachLine(buf, onLine, outOfTime) {
      let start = 0
      for (let n = 0; start <= buf.length; n++) {
        if (n % 2_048 === 2_047 && outOfTime()) return
        const nl = buf.indexOf(10, start)
        const end = nl === -1 ? buf.length : nl
        // A CRLF file's lines are matched without their CR, so `$` works as in an LF file.
        const textEnd = end > start && buf[end - 1] === 13 ? end - 1 : end
        // After the last newline there is no line left (and an empty file has none).
        if (nl === -1 && start === buf.length) return
        if (line.test(buf.subarray(start, textEnd)) && !onLine(start, end)) return
        if (nl === -1) return
        start = nl + 1
      }
    },
  }
}

async function compile(pattern: string): Promise<Matcher | string> {
  if (LITERAL.test(pattern)) return literalMatcher(pattern)
  if (unsupported(pattern)) {
    return 'pattern uses lookahead, lookbehind or a backreference, which grep\'s linear-time regex engine (RE2) does not support; search for the plain part of it and check the surrounding lines with read_file.'
  }
  const { RE2JS } = await import('re2js')
  let source: string
  try {
    // JavaScript spellings (\u0041, named groups (?<n>…)) in RE2 terms.
    source = RE2JS.translateRegExp(pattern)
    const line = RE2JS.compile(source)
    const file = LINE_SENSITIVE.test(pattern) ? null : RE2JS.compile(source, RE2JS.MULTILINE)
    return regexMatcher(line, file)
  } catch (e) {
    const reason = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : String(e)
    return `pattern is not a valid regular expression (${reason}); grep uses RE2 syntax (like JavaScript's, without lookaround or backreferences): escape special characters (. ( ) [ ] { } * + ? | ^ $ \\) with \\ to match them literally.`
  }
}

interface Search {
  matcher: Matcher
  start: Extract<ToWorker, { type: 'start' }>
  matches: number
  stopped: boolean
}

function emptyBatch(id: number): BatchResult {
  return { type: 'batch', id, handled: 0, matches: [], filesWithMatches: 0, filesRead: 0, binary: 0, large: [], changed: [], unreadable: [], capped: false, timedOut: false }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/** Searches one checked file into `out`; false once the search must stop (cap or deadline). */
function searchFile(file: GrepFile, s: Search, out: BatchResult): boolean {
  try {
    return searchOpened(file, s, out)
  } catch (e) {
    // A read error (EIO, a file turned into a folder…) is this file's problem, reported, not the search's.
    out.unreadable.push(`${file.shown} (${errorCode(e) ?? (e instanceof Error ? e.message : String(e))})`)
    return true
  }
}

function searchOpened(file: GrepFile, s: Search, out: BatchResult): boolean {
  let fd: number | null
  try {
    fd = openChecked(file.abs)
  } catch (e) {
    const code = errorCode(e)
    if (code === 'ELOOP' || code === 'ENOTDIR') out.changed.push(file.shown)
    else if (code === 'EACCES' || code === 'EPERM') out.unreadable.push(file.shown)
    else if (code !== 'ENOENT') out.unreadable.push(`${file.shown} (${code ?? String(e)})`)
    // ENOENT: deleted since the folder was read; nothing to search.
    return true
  }
  if (fd === null) {
    out.changed.push(file.shown)
    return true
  }
  try {
    // Most files fit the first read: one read, no stat, no allocation (a stat and a buffer per file cost twice the
    // time of the search itself over a node_modules tree).
    let buf = scratch
    let got = fs.readSync(fd, buf, 0, FIRST_READ, 0)
    out.filesRead++
    if (looksBinary(buf.subarray(0, Math.min(got, SNIFF_BYTES)))) {
      out.binary++
      return true
    }
    if (got === FIRST_READ) {
      const size = fs.fstatSync(fd).size
      if (size > s.start.maxFileBytes) {
        out.large.push(file.shown)
        return true
      }
      if (size > buf.length) {
        buf = Buffer.allocUnsafe(size)
        scratch.copy(buf, 0, 0, got)
      }
      while (got < size) {
        const n = fs.readSync(fd, buf, got, size - got, got)
        if (n === 0) break
        got += n
      }
    }
    const text = buf.subarray(0, got)
    if (!s.matcher.mayMatch(text)) return true
    return matchLines(file, text, s, out)
  } finally {
    fs.closeSync(fd)
  }
}

function matchLines(file: GrepFile, buf: Buffer, s: Search, out: BatchResult): boolean {
  let lineNo = 1
  let counted = 0
  let found = false
  let keepGoing = true
  s.matcher.eachLine(
    buf,
    (start, end) => {
      // Line numbers: count the newlines skipped since the last match.
      for (let q = buf.indexOf(10, counted); q !== -1 && q < start; q = buf.indexOf(10, q + 1)) {
        lineNo++
        counted = q + 1
      }
      counted = start
      if (s.matches === s.start.maxMatches) {
        // One match past the cap proves there are more; stop reading here.
        out.capped = true
        keepGoing = false
        return false
      }
      s.matches++
      found = true
      const textEnd = end > start && buf[end - 1] === 13 ? end - 1 : end
      out.matches.push(`${file.shown}:${lineNo}: ${cut(buf.toString('utf8', start, textEnd), s.start.maxLineChars)}`)
      return true
    },
    () => {
      if (Date.now() < s.start.deadline) return false
      out.timedOut = true
      keepGoing = false
      return true
    },
  )
  if (found) out.filesWithMatches++
  return keepGoing
}

function runWorker(): void {
  const port = parentPort
  if (!port) return
  const send = (m: FromWorker) => port.postMessage(m)
  let search: Search | null = null
  port.on('message', (m: ToWorker) => {
    if (m.type === 'start') {
      search = null
      void compile(m.pattern).then((matcher) => {
        if (typeof matcher === 'string') return send({ type: 'error', id: m.id, message: matcher })
        search = { matcher, start: m, matches: 0, stopped: false }
        send({ type: 'ready', id: m.id })
      })
      return
    }
    const s = search
    if (m.type === 'end') return s && send({ type: 'done', id: s.start.id })
    // Files after a stop (cap, deadline) are still on their way; they are dropped unread.
    if (!s || s.stopped) return
    const out = emptyBatch(s.start.id)
    // Folder descriptors live for one batch: nothing stays open while the worker waits.
    closeFolder()
    for (const file of m.files) {
      if (Date.now() >= s.start.deadline) out.timedOut = true
      else if (searchFile(file, s, out)) {
        out.handled++
        continue
      }
      s.stopped = true
      break
    }
    closeFolder()
    send(out)
  })
}

if (!isMainThread && (workerData as { agentry?: string } | null)?.agentry === 'grep') runWorker()
