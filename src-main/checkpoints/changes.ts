import type { DiffLine, FileChange, Hunk } from '../../src-shared'
import { runGit, splitZ, type ShadowPlace } from './git'

/** Git's mode strings as recorded: '100644' file, '100755' executable, '120000' symlink, '160000' nested repository. */
export const MODE = { file: '100644', executable: '100755', symlink: '120000', nested: '160000' } as const

/** One path's entry in a tree diff (`git diff-tree --raw`); an absent side has mode and blob undefined. */
export type RawEntry = {
  status: 'A' | 'D' | 'M' | 'T' | 'R'
  path: string
  oldPath?: string
  oldMode?: string
  newMode?: string
  oldBlob?: string
  newBlob?: string
  similarity?: number
}

export type { DiffLine, FileChange, Hunk }

const STATUS = { A: 'added', D: 'deleted', M: 'modified', T: 'modified', R: 'renamed' } as const
const ZERO_MODE = '000000'
const NO_BLOB = /^0+$/

/** A tree id as the store makes them; anything else never reaches git's command line (it could be an option). */
export function checkTreeId(id: string, what: string): void {
  if (typeof id !== 'string' || !/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(id)) {
    throw new Error(`checkpoints: ${what} ${JSON.stringify(id)} is not a snapshot id (40 or 64 hex digits from snapshot())`)
  }
}

/** `git diff-tree -r -z --raw`, parsed: one entry per path (renames detected only with `renames`). */
export async function rawDiff(place: ShadowPlace, from: string, to: string, renames: boolean): Promise<RawEntry[]> {
  const { stdout } = await runGit(place, ['diff-tree', '-r', '-z', '--raw', renames ? '-M' : '--no-renames', from, to])
  const parts = splitZ(stdout)
  const out: RawEntry[] = []
  for (let i = 0; i < parts.length; ) {
    // ":100644 100644 <old> <new> M" then the path (two paths for a rename: old, then new)
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([ADMTRC])(\d*)$/.exec(parts[i])
    if (!m) throw new Error(`checkpoints: could not read git diff-tree output near ${JSON.stringify(parts[i])}; report this as a bug`)
    const status = m[5] === 'C' ? 'A' : (m[5] as RawEntry['status'])
    const entry: RawEntry = { status, path: parts[i + 1] }
    if (m[5] === 'R' || m[5] === 'C') {
      entry.oldPath = m[5] === 'R' ? parts[i + 1] : undefined
      entry.path = parts[i + 2]
      entry.similarity = Number(m[6])
      i += 3
    } else i += 2
    if (m[1] !== ZERO_MODE) entry.oldMode = m[1]
    if (m[2] !== ZERO_MODE) entry.newMode = m[2]
    if (!NO_BLOB.test(m[3])) entry.oldBlob = m[3]
    if (!NO_BLOB.test(m[4])) entry.newBlob = m[4]
    out.push(entry)
  }
  return out
}

/**
 * Every file that differs between two snapshots, with its diff. Two git calls: `--raw -z` for exact paths and modes
 * (any byte in a name survives), then `-p` for the diffs. The patch's files come in the same order; its headers quote
 * odd names, so we never read paths from it — only split it where a line starts with "diff --git " (a diff's own lines
 * always start with ' ', '+', '-', '\' or '@'). A change between file and symlink is two diffs in a patch (git splits
 * it into a deletion and a creation), so it takes two pieces.
 */
export async function changes(place: ShadowPlace, from: string, to: string): Promise<FileChange[]> {
  checkTreeId(from, 'fromTree')
  checkTreeId(to, 'toTree')
  const raw = await rawDiff(place, from, to, true)
  if (!raw.length) return []
  const { stdout } = await runGit(place, [
    'diff-tree', '-r', '-M', '-p', '--no-color', '--no-ext-diff', '--no-textconv', '--src-prefix=a/', '--dst-prefix=b/', from, to,
  ])
  const pieces = splitPatch(stdout.toString('utf8'))
  const wanted = raw.reduce((n, e) => n + (e.status === 'T' ? 2 : 1), 0)
  if (pieces.length !== wanted) {
    throw new Error(`checkpoints: git diff-tree printed ${pieces.length} diffs for ${wanted} changed files; report this as a bug`)
  }
  let next = 0
  return raw.map((e) => {
    const own = pieces.slice(next, (next += e.status === 'T' ? 2 : 1))
    const hunks = own.flatMap(parseHunks)
    const lines = hunks.flatMap((h) => h.lines)
    const change: FileChange = {
      path: e.path,
      status: STATUS[e.status],
      binary: own.some((p) => /^Binary files .* differ$/m.test(p)),
      nested: e.oldMode === MODE.nested || e.newMode === MODE.nested,
      additions: lines.filter((l) => l.kind === 'add').length,
      deletions: lines.filter((l) => l.kind === 'delete').length,
      patch: own.join(''),
      hunks,
    }
    if (e.oldPath !== undefined) change.oldPath = e.oldPath
    if (e.similarity !== undefined) change.similarity = e.similarity
    if (e.oldMode) change.oldMode = e.oldMode
    if (e.newMode) change.newMode = e.newMode
    return change
  })
}

function splitPatch(text: string): string[] {
  const starts: number[] = []
  const re = /^diff --git /gm
  for (let m = re.exec(text); m; m = re.exec(text)) starts.push(m.index)
  return starts.map((s, i) => text.slice(s, starts[i + 1] ?? text.length))
}

/** The hunks of one file's diff, each line numbered on its side(s). */
export function parseHunks(piece: string): Hunk[] {
  const hunks: Hunk[] = []
  let hunk: Hunk | undefined
  let oldLine = 0
  let newLine = 0
  const lines = piece.split('\n')
  if (lines.at(-1) === '') lines.pop()
  for (const line of lines) {
    const h = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line)
    if (h) {
      hunk = { header: line, oldStart: Number(h[1]), oldLines: h[2] === undefined ? 1 : Number(h[2]), newStart: Number(h[3]), newLines: h[4] === undefined ? 1 : Number(h[4]), lines: [] }
      oldLine = hunk.oldStart
      newLine = hunk.newStart
      hunks.push(hunk)
      continue
    }
    if (!hunk) continue // the file's headers, before its first hunk
    const text = line.slice(1)
    if (line.startsWith(' ')) hunk.lines.push({ kind: 'context', text, oldLine: oldLine++, newLine: newLine++ })
    else if (line.startsWith('-')) hunk.lines.push({ kind: 'delete', text, oldLine: oldLine++ })
    else if (line.startsWith('+')) hunk.lines.push({ kind: 'add', text, newLine: newLine++ })
    else if (line.startsWith('\\')) {
      const last = hunk.lines.at(-1)
      if (last) last.noNewlineAtEnd = true
    }
  }
  return hunks
}
