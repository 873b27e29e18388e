/**
 * Shell benchmark (issue 9): loading the bash grammar, judging a bash line (parse + unwrap + the write asks +
 * the permission decision), and the host's event loop while the adversarial table runs through the real bash
 * tool in the sandbox. Run: `npx tsx bench/shell.bench.ts` (prints one JSON object). The bench runner imports run().
 */
import { execFileSync } from 'node:child_process'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { analyzeShell, decideRequests, fromCompact, loadShellGrammar, type LayeredRules } from '../src-main/permissions'
import { requestsFor } from '../src-main/runtime/authorize'
import { BASH_LINES, RULE_SETS } from '../src-main/runtime/testing/bash-lines'
import { DEFAULT_SANDBOX_POLICY } from '../src-main/sandbox'
import { bashWriteAsks } from '../src-main/tools/bash-writes'
import { BUILTIN_TOOLS, runTool } from '../src-main/tools'
import { makeContext } from '../src-main/tools/testing/test-context'
import { median, percentile, round, runIfMain } from './stats'

const here = path.dirname(fileURLToPath(import.meta.url))
const LOADS = 7
const REPS = 30
const EVERYDAY = [
  'git status --short',
  'npm run test -- --watch=false 2>&1 | tail -40',
  'cd packages/app && npx tsc --noEmit -p tsconfig.json',
  'find src -name "*.ts" -not -path "*/node_modules/*" | xargs grep -l "TODO" | head -20',
  'for f in $(ls *.log); do echo "$f"; tail -n 3 "$f"; done > summary.txt',
  'git log --oneline -20 && git diff --stat HEAD~1',
  "python3 -c 'import sys; print(sys.version)'",
  'docker compose up -d db && sleep 2 && docker compose ps',
]

/** Cold loads, each in a fresh process: wall time, and CPU time (all threads), which a busy machine inflates less. */
function grammarLoads(): { wallMs: number; cpuMs: number }[] {
  const out: { wallMs: number; cpuMs: number }[] = []
  for (let i = 0; i < LOADS; i++) {
    const text = execFileSync(process.execPath, ['--import', 'tsx', path.join(here, 'shell-grammar-load.ts')], { cwd: path.dirname(here), encoding: 'utf8' })
    out.push(JSON.parse(text) as { wallMs: number; cpuMs: number })
  }
  return out
}

/** Wall time per judged line, and CPU time per line (time the process was not scheduled does not count). */
function judging(workdir: string): { samples: number[]; cpu: number[]; lines: number } {
  const lines = [...BASH_LINES.map((l) => l.line), ...EVERYDAY].filter((l) => l.length < 200)
  const chains: LayeredRules[][] = Object.values(RULE_SETS).map((set) => [{ agent: fromCompact({ '*': 'allow' }), static: fromCompact(set), runtime: [] }])
  const samples: number[] = []
  const cpu: number[] = []
  for (let rep = 0; rep < REPS; rep++) {
    for (const line of lines) {
      for (const chain of chains) {
        const cpuStart = process.cpuUsage()
        const started = performance.now()
        // A fresh parse every time (the host caches by line; this measures the uncached path).
        analyzeShell(line, { cached: false })
        const asks = [{ kind: 'command' as const, subjects: [line] }, ...bashWriteAsks(line, workdir)]
        decideRequests(chain, requestsFor('bash', asks))
        samples.push(performance.now() - started)
        const used = process.cpuUsage(cpuStart)
        cpu.push((used.user + used.system) / 1000)
      }
    }
  }
  return { samples, cpu, lines: lines.length }
}

async function loopDuringTable(): Promise<Record<string, unknown>> {
  const bash = BUILTIN_TOOLS.find((t) => t.name === 'bash')!
  const chain: LayeredRules[] = [{ agent: fromCompact({ '*': 'allow' }), static: fromCompact(RULE_SETS.allowAllButRm), runtime: [] }]
  const loop = monitorEventLoopDelay({ resolution: 5 })
  const perCall: number[] = []
  let ran = 0
  loop.enable()
  for (const l of BASH_LINES) {
    const ctx = makeContext()
    ctx.sandbox = DEFAULT_SANDBOX_POLICY
    ctx.authorize = async (asks) => (decideRequests(chain, requestsFor('bash', asks)).action === 'allow' ? { ok: true } : { ok: false, message: 'denied' })
    loop.reset()
    const r = await runTool(bash, { command: l.line, timeoutMs: 15_000 }, ctx)
    perCall.push(loop.max / 1e6)
    if (!r.metadata?.denied) ran++
    ctx.cleanup()
  }
  loop.disable()
  return { toolCalls: BASH_LINES.length, ran, worstStallMs: round(Math.max(...perCall)), p99StallMs: round(percentile(perCall, 99)), medianStallMs: round(median(perCall)) }
}

async function commandStartMs(enabled: boolean): Promise<number> {
  const bash = BUILTIN_TOOLS.find((t) => t.name === 'bash')!
  const times: number[] = []
  for (let i = 0; i < 15; i++) {
    const ctx = makeContext()
    ctx.sandbox = { ...DEFAULT_SANDBOX_POLICY, enabled }
    const started = performance.now()
    await runTool(bash, { command: 'true' }, ctx)
    times.push(performance.now() - started)
    ctx.cleanup()
  }
  return round(median(times))
}

export async function run(): Promise<Record<string, unknown>> {
  const loads = grammarLoads()
  await loadShellGrammar()
  const ctx = makeContext()
  judging(ctx.workdir) // warm-up
  const { samples, cpu, lines } = judging(ctx.workdir)
  ctx.cleanup()
  const wall = loads.map((l) => l.wallMs)
  const loadCpu = loads.map((l) => l.cpuMs)
  return {
    grammarLoadMs: { median: round(median(wall)), min: round(Math.min(...wall)), cpuMedian: round(median(loadCpu)), runs: LOADS },
    judgeLineMs: {
      lines,
      samples: samples.length,
      p50: round(percentile(samples, 50), 3),
      p99: round(percentile(samples, 99), 3),
      max: round(Math.max(...samples), 3),
      cpuP99: round(percentile(cpu, 99), 3),
    },
    eventLoopDuringAdversarialTable: await loopDuringTable(),
    trueCommandMs: { sandboxed: await commandStartMs(true), unconfined: await commandStartMs(false) },
  }
}

runIfMain(import.meta.url, run)
