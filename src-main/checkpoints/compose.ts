import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { isMissing } from '../files'
import { checkTreeId } from './changes'
import { runGit, type ShadowPlace } from './git'
import { checkRelativePath } from './paths'

/** A file as a snapshot records it: git's mode string and blob id. */
export type Entry = { mode: string; blob: string }

/** One path of a composed snapshot: its entry, or null for "not there". */
export type Override = { path: string; entry: Entry | null }

const ZERO = '0'.repeat(40)

/**
 * A snapshot that is `base` except for `overrides` — each path set to an entry taken from another snapshot, or
 * removed. Undo across several turns needs it: each file goes back to its state before the first turn that changed
 * it, which is not one recorded snapshot when the person edited other files between turns. Built in an index file of
 * its own (read-tree, update-index, write-tree): the shadow index, and so the next snapshot's stat cache, is untouched.
 */
export async function compose(place: ShadowPlace, base: string, overrides: Override[]): Promise<string> {
  checkTreeId(base, 'base')
  if (!overrides.length) return base
  for (const o of overrides) {
    checkRelativePath(o.path)
    if (o.entry && (!/^\d{6}$/.test(o.entry.mode) || !/^([0-9a-f]{40}|[0-9a-f]{64})$/.test(o.entry.blob))) {
      throw new Error(`checkpoints: compose got ${JSON.stringify(o.entry)} for ${o.path}, which is not a snapshot entry`)
    }
  }
  const indexFile = path.join(place.gitDir, `compose-${randomBytes(6).toString('hex')}.index`)
  const own: ShadowPlace = { ...place, indexFile }
  try {
    await runGit(own, ['read-tree', base])
    // Removals first: a path may turn from a folder into a file (or back), and the index holds one or the other.
    const lines = [
      ...overrides.filter((o) => !o.entry).map((o) => `0 ${ZERO}\t${o.path}\0`),
      ...overrides.filter((o) => o.entry).map((o) => `${o.entry!.mode} ${o.entry!.blob}\t${o.path}\0`),
    ]
    await runGit(own, ['update-index', '-z', '--add', '--remove', '--replace', '--index-info'], { input: lines.join('') })
    return (await runGit(own, ['write-tree'])).stdout.toString('utf8').trim()
  } finally {
    try {
      fs.unlinkSync(indexFile)
    } catch (err) {
      if (!isMissing(err)) throw err
    }
  }
}

/** The entries of `paths` in snapshot `tree` (a path it does not hold is absent from the map). */
export async function entriesOf(place: ShadowPlace, tree: string, paths: string[]): Promise<Map<string, Entry>> {
  checkTreeId(tree, 'tree')
  const out = new Map<string, Entry>()
  if (!paths.length) return out
  // ls-tree takes the paths as arguments; thousands of them in batches, under any command-line limit.
  for (let i = 0; i < paths.length; i += 500) {
    const batch = paths.slice(i, i + 500)
    const { stdout } = await runGit(place, ['ls-tree', '-r', '-z', '--full-tree', tree, '--', ...batch.map((p) => `:(literal)${p}`)])
    for (const rec of stdout.toString('utf8').split('\0')) {
      const m = /^(\d{6}) \w+ ([0-9a-f]+)\t(.*)$/s.exec(rec)
      if (m) out.set(m[3], { mode: m[1], blob: m[2] })
    }
  }
  return out
}
