/**
 * Checkpoint store benchmark (issue 24): a temp git repository of 10,000 committed files (500 folders of 20), then in
 * interleaved rounds, side by side: `git status --porcelain` on it (the reference), a snapshot of the unchanged
 * workspace, and a snapshot after changing one file. The first snapshot (cold: an empty store hashing every file) is
 * measured once per fresh data dir, COLD_RUNS times. Targets: unchanged < 100 ms and ≤ 2× git status, one changed
 * file < 150 ms, first < 2 s. Run: `npx tsx bench/checkpoints.bench.ts` (prints JSON). The bench runner imports run().
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openCheckpoints } from '../src-main/checkpoints'
import { machine, median, percentile, round, runIfMain } from './stats'

const FILES = 10_000
const PER_FOLDER = 20
const ROUNDS = 15
const COLD_RUNS = 3
const TARGETS = { unchangedMs: 100, unchangedVsStatus: 2, oneChangedMs: 150, firstMs: 2000 }

function personGit(cwd: string, ...args: string[]): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')))
  return execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', '-c', 'core.hooksPath=/dev/null', ...args], { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
}

function makeRepo(root: string): void {
  for (let i = 0; i < FILES; i++) {
    const dir = path.join(root, 'src', `mod${String(Math.floor(i / PER_FOLDER)).padStart(3, '0')}`)
    if (i % PER_FOLDER === 0) fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, `file${i}.ts`), `export const value${i} = ${i}\n// ${'x'.repeat(i % 200)}\n`)
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\n')
  personGit(root, 'init', '-q', '-b', 'main')
  personGit(root, 'add', '-A')
  personGit(root, 'commit', '-qm', 'start')
}

async function timed<T>(f: () => Promise<T> | T): Promise<[number, T]> {
  const t0 = performance.now()
  const v = await f()
  return [performance.now() - t0, v]
}

const summary = (xs: number[]) => ({ medianMs: round(median(xs)), p90Ms: round(percentile(xs, 90)), minMs: round(Math.min(...xs)) })

export async function run(): Promise<Record<string, unknown>> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-ckpt-bench-')))
  try {
    const ws = path.join(tmp, 'ws')
    fs.mkdirSync(ws)
    makeRepo(ws)
    personGit(ws, 'status', '--porcelain') // the person's index stat cache is warm, as in a repository in use

    const cold: number[] = []
    let store = await openCheckpoints({ dataDir: path.join(tmp, 'data-0'), workspace: ws })
    for (let i = 0; i < COLD_RUNS; i++) {
      if (i > 0) store = await openCheckpoints({ dataDir: path.join(tmp, `data-${i}`), workspace: ws })
      cold.push((await timed(() => store.snapshot()))[0])
    }

    const status: number[] = []
    const unchanged: number[] = []
    const oneChanged: number[] = []
    let last = await store.snapshot()
    let sameId = true
    const victim = path.join(ws, 'src', 'mod250', 'file5000.ts')
    for (let r = 0; r < ROUNDS; r++) {
      status.push((await timed(() => personGit(ws, 'status', '--porcelain')))[0])
      const [u, tree] = await timed(() => store.snapshot())
      unchanged.push(u)
      sameId &&= tree === last
      fs.writeFileSync(victim, `export const value5000 = ${r}\n`)
      const [c, changed] = await timed(() => store.snapshot())
      oneChanged.push(c)
      sameId &&= changed !== last
      last = changed
    }
    const s = summary(status)
    const u = summary(unchanged)
    const c = summary(oneChanged)
    const first = { medianMs: round(median(cold)), runs: cold.map((x) => round(x)) }
    const ratio = round(u.medianMs / s.medianMs, 2)
    return {
      machine: machine(),
      files: FILES,
      rounds: ROUNDS,
      gitStatus: s,
      snapshotUnchanged: { ...u, vsGitStatus: ratio },
      snapshotOneChanged: c,
      firstSnapshot: first,
      storeBytes: await store.sizeBytes(),
      idsAsExpected: sameId,
      targets: TARGETS,
      met: {
        unchanged: u.medianMs < TARGETS.unchangedMs,
        unchangedVsStatus: ratio <= TARGETS.unchangedVsStatus,
        oneChanged: c.medianMs < TARGETS.oneChangedMs,
        first: first.medianMs < TARGETS.firstMs,
      },
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
