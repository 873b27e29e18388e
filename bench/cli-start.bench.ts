/**
 * CLI start-up benchmark: `agentry run --model script/x hi` with a script answering one line, wall time from
 * spawning the process to its exit, as a user would feel it. Target (issue 2): < 400 ms.
 * Run: `npx tsx bench/cli-start.bench.ts` (prints JSON). The bench runner imports run().
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { agentry, buildCli, tempDir, writeFiles, type CliOptions } from '../src-main/cli/testing/cli-process'
import { median, percentile, round, runIfMain } from './stats'

const RUNS = 10
const TARGET_MS = 400

async function timed(args: string[], o: CliOptions, expectOut: string): Promise<number> {
  const r = await agentry(args, o)
  if (r.code !== 0 || r.stdout !== expectOut) throw new Error(`agentry ${args.join(' ')} failed (exit ${r.code}): ${r.stderr || r.stdout}`)
  return r.ms
}

function nodeBareMs(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' })
    child.once('error', reject)
    child.once('exit', () => resolve(performance.now() - started))
  })
}

export async function run(): Promise<Record<string, unknown>> {
  buildCli()
  const home = tempDir('bench-cli-home')
  const work = tempDir('bench-cli-work')
  try {
    writeFiles(home, { 'script.yaml': { agents: { '*': [{ text: 'hello', repeat: true }] } } })
    const o: CliOptions = { home, cwd: work, env: { AGENTRY_SCRIPT: path.join(home, 'script.yaml') } }
    const args = ['run', '--model', 'script/x', 'hi']
    // The first run after a build creates the database and (Node ≥ 22.1) fills the compile cache: reported apart.
    const firstMs = await timed(args, o, 'hello\n')
    const samples: number[] = []
    for (let i = 0; i < RUNS; i++) samples.push(await timed(args, o, 'hello\n'))
    // What Node itself costs to start and exit on this machine, for scale.
    const bare: number[] = []
    for (let i = 0; i < 5; i++) bare.push(await nodeBareMs())
    const medianMs = median(samples)
    return {
      bench: 'cli-start',
      runs: RUNS,
      firstRunMs: round(firstMs),
      medianMs: round(medianMs),
      p90Ms: round(percentile(samples, 90)),
      minMs: round(Math.min(...samples)),
      maxMs: round(Math.max(...samples)),
      nodeBareStartMs: round(median(bare)),
      targetMs: TARGET_MS,
      pass: medianMs < TARGET_MS,
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true })
    fs.rmSync(work, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
