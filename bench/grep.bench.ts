/**
 * grep benchmark (issue 9): the grep tool over this repository's own node_modules for a literal, side by side with
 * GNU `grep -rIn` on the same tree in the same run. Target: ≤ 2× GNU grep's time.
 * Run: `npx tsx bench/grep.bench.ts` (prints one JSON object). The bench runner imports run().
 */
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { grepTool } from '../src-main/tools/grep'
import { runTool } from '../src-main/tools/run-tool'
import { makeContext } from '../src-main/tools/testing/test-context'
import { median, round, runIfMain } from './stats'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
/** Rare enough to stay under grep's 500-match cap, so both searches read the whole tree. */
const LITERAL = 'createRequire'
const ROUNDS = 9

function gnuGrep(): { ms: number; lines: number } {
  const started = performance.now()
  // -I: skip binary files, as the tool does; exit 1 would mean no match at all.
  const r = spawnSync('grep', ['-rIn', LITERAL, 'node_modules'], { cwd: REPO, maxBuffer: 256 * 1024 * 1024 })
  const ms = performance.now() - started
  if (r.status !== 0) throw new Error(`grep -rIn exited ${r.status}: ${r.stderr.toString()}`)
  return { ms, lines: r.stdout.toString().split('\n').filter(Boolean).length }
}

export async function run(): Promise<Record<string, unknown>> {
  if (!fs.existsSync(path.join(REPO, 'node_modules'))) throw new Error('node_modules is missing; run npm ci first')
  const version = execFileSync('grep', ['--version']).toString().split('\n')[0]
  // Its workdir is the repository itself: never call this context's cleanup(), which deletes the workdir.
  const ctx = makeContext({ workdir: REPO })
  try {
    const ours = async () => {
      const started = performance.now()
      const r = await runTool(grepTool, { pattern: LITERAL, path: 'node_modules' }, ctx)
      if (!r.ok) throw new Error(`grep tool failed: ${r.output.slice(0, 300)}`)
      return { ms: performance.now() - started, matches: r.metadata?.matches as number, filesRead: r.metadata?.filesRead as number }
    }
    // The first call starts the worker thread (a running host has one warm after its first grep).
    const cold = await ours()
    const gnuMs: number[] = []
    const toolMs: number[] = []
    let gnuLines = 0
    let last = cold
    for (let i = 0; i < ROUNDS; i++) {
      // Alternating, so both see the same machine load and the same page cache.
      const g = gnuGrep()
      gnuMs.push(g.ms)
      gnuLines = g.lines
      last = await ours()
      toolMs.push(last.ms)
    }
    const ratio = median(toolMs) / median(gnuMs)
    return {
      tree: 'node_modules of this repository',
      literal: LITERAL,
      gnuGrep: { version, medianMs: round(median(gnuMs)), runsMs: gnuMs.map((n) => round(n)), matchingLines: gnuLines },
      tool: {
        medianMs: round(median(toolMs)),
        runsMs: toolMs.map((n) => round(n)),
        firstCallMs: round(cold.ms),
        matches: last.matches,
        filesRead: last.filesRead,
      },
      ratio: round(ratio, 2),
      target: 'tool ≤ 2× GNU grep',
      met: ratio <= 2,
    }
  } finally {
    fs.rmSync(ctx.overflowDir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
