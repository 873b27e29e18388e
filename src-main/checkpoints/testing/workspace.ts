/** Test support for the checkpoint store: temp workspaces with real files and real git, and a fingerprint of `.git`. */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'
import { openCheckpoints, type Checkpoints } from '../index'

const made: string[] = []
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** A fresh real folder (symlinks resolved), removed after the test. */
export function tempDir(name: string): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `agentry-ckpt-${name}-`)))
  made.push(d)
  return d
}

/** Writes files (string content; `null` deletes), creating folders. */
export function writeFiles(root: string, files: Record<string, string | Buffer | null>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel)
    if (content === null) fs.rmSync(abs, { force: true })
    else {
      fs.mkdirSync(path.dirname(abs), { recursive: true })
      fs.writeFileSync(abs, content)
    }
  }
}

export const read = (root: string, rel: string): string => fs.readFileSync(path.join(root, rel), 'utf8')

/** git as the person runs it in their own repository (their environment without our GIT_* of a hook). */
export function personGit(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')))
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'core.hooksPath=/dev/null', ...args], { cwd, encoding: 'utf8', stdio: 'pipe', env })
}

/** Every file under `dir` (symlinks as their target) → sha256 of its bytes and its mode: equal maps, equal trees. */
export function fingerprint(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (abs: string, rel: string) => {
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      if (skip(r)) continue
      const p = path.join(abs, e.name)
      const st = fs.lstatSync(p)
      if (e.isDirectory()) {
        out[`${r}/`] = `dir ${(st.mode & 0o777).toString(8)}`
        walk(p, r)
      } else if (e.isSymbolicLink()) out[r] = `link ${fs.readlinkSync(p)}`
      else out[r] = `${(st.mode & 0o777).toString(8)} ${createHash('sha256').update(fs.readFileSync(p)).digest('hex')}`
    }
  }
  walk(dir, '')
  return out
}

/** A workspace folder with `files`, and its store in a data dir of its own. */
export async function workspaceWithStore(files: Record<string, string | Buffer | null> = {}): Promise<{ ws: string; dataDir: string; store: Checkpoints }> {
  const ws = tempDir('ws')
  const dataDir = tempDir('data')
  writeFiles(ws, files)
  return { ws, dataDir, store: await openCheckpoints({ dataDir, workspace: ws }) }
}
