/**
 * Checkpoint overhead of a turn (issue 24): the same fan-out-16 turn (16 explore children, the script model) on two
 * hosts in one process — checkpoints on and off — over the same workspace, in interleaved rounds. CPU is this
 * process's plus its waited-for children's (the git processes the checkpoints run: /proc/self/stat cutime+cstime).
 * Two workspaces: the harness's few files, and 2,000 files in 100 folders (a small project). Target: the overhead
 * is < 5% of the fan-out turn's CPU.
 * Run: `npx tsx bench/checkpoint-turn.bench.ts` (prints JSON). The bench runner imports run().
 */
import fs from 'node:fs'
import path from 'node:path'
import { createHarness, type Harness } from '../src-main/testing/harness'
import { median, round, runIfMain } from './stats'

const N = 16
const ROUNDS = 8
const TARGET_PERCENT = 5
const TICK_MS = 1000 / 100 // USER_HZ: Linux reports children's CPU in 1/100 s

const task = (i: number) => ({ name: 'task', input: { subagent_type: 'explore', description: `Part ${i}`, prompt: `Look at part ${i}` } })

/** CPU ms of this process and of the children it has waited for (git, bash). */
function cpuMs(): number {
  const own = process.cpuUsage()
  const stat = fs.readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // after the command name: state is field 3; cutime and cstime are fields 16 and 17 (1-based over the whole line)
  const children = (Number(fields[13]) + Number(fields[14])) * TICK_MS
  return (own.user + own.system) / 1000 + children
}

function harness(checkpoints: boolean, files: Record<string, string>): Promise<Harness> {
  return createHarness({
    files,
    config: { subagents: { maxConcurrent: N }, checkpoints: { enabled: checkpoints } },
    script: {
      agents: {
        build: [
          { step: 1, repeat: true, text: 'Splitting the work.', tools: Array.from({ length: N }, (_, i) => task(i)) },
          { step: 2, repeat: true, text: 'All parts reported.' },
        ],
        explore: [{ repeat: true, text: 'Part looked at.' }],
        '*': [{ repeat: true, text: 'Fan-out' }],
      },
    },
  })
}

async function measure(name: string, files: Record<string, string>): Promise<Record<string, unknown>> {
  const on = await harness(true, files)
  const off = await harness(false, files)
  try {
    const cpu = { on: [] as number[], off: [] as number[] }
    const wall = { on: [] as number[], off: [] as number[] }
    for (let i = 0; i <= ROUNDS; i++) {
      for (const [key, h] of [['on', on], ['off', off]] as const) {
        const c0 = cpuMs()
        const t0 = performance.now()
        const r = await h.run(`fan out ${i}`)
        const ms = performance.now() - t0
        const c = cpuMs() - c0
        if (r.final?.text !== 'All parts reported.') throw new Error(`fan-out turn failed: ${JSON.stringify(r.final?.text)}`)
        // the first round warms both hosts up (the first snapshot of a workspace is a full one)
        if (i > 0) {
          cpu[key].push(c)
          wall[key].push(ms)
        }
      }
    }
    const recorded = on.host.store.checkpoints.checkpointWorkspaces().length
    if (recorded !== 1 || off.host.store.checkpoints.checkpointWorkspaces().length !== 0) throw new Error('checkpoints were not recorded on one host only')
    const [cOn, cOff] = [median(cpu.on), median(cpu.off)]
    return {
      workspace: name,
      files: Object.keys(files).length,
      cpuMs: { on: round(cOn), off: round(cOff) },
      wallMs: { on: round(median(wall.on)), off: round(median(wall.off)) },
      overheadPercent: round(((cOn - cOff) / cOff) * 100),
    }
  } finally {
    await on.close()
    await off.close()
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const small = { 'README.md': '# a project\n', 'src/index.ts': 'export const x = 1\n' }
  const project: Record<string, string> = {}
  for (let i = 0; i < 2000; i++) project[path.join(`src${i % 100}`, `file${i}.ts`)] = `export const v${i} = ${i}\n`.repeat(20)
  const rows = [await measure('small', small), await measure('2,000 files', project)]
  const worst = Math.max(...rows.map((r) => r.overheadPercent as number))
  return { bench: 'checkpoint-turn', n: N, rounds: ROUNDS, rows, target: { overheadPercent: TARGET_PERCENT }, met: worst < TARGET_PERCENT }
}

runIfMain(import.meta.url, run)
