/**
 * Checkpoint overhead of a turn (issue 24): the same fan-out-16 turn (16 children, the script model) on two hosts in
 * one process — checkpoints on and off — over the same workspace, in interleaved rounds. Children that only read
 * (explore), and children that each write a file (a worker). CPU is this
 * process's plus its waited-for children's (the git processes the checkpoints run: /proc/self/stat cutime+cstime).
 * Two workspaces: the harness's few files, and 2,000 files in 100 folders (a small project). Target: the overhead
 * is < 5% of the fan-out turn's CPU.
 * Run: `npx tsx bench/checkpoint-turn.bench.ts` (prints JSON). The bench runner imports run().
 */
import fs from 'node:fs'
import path from 'node:path'
import { agentry, buildCli, tempDir, writeFiles } from '../src-main/cli/testing/cli-process'
import { startScriptedChatServer } from '../src-main/models/testing'
import { createHarness, type Harness } from '../src-main/testing/harness'
import { median, round, runIfMain } from './stats'

const N = 16
const ROUNDS = 8
const TARGET_PERCENT = 5
const TICK_MS = 1000 / 100 // USER_HZ: Linux reports children's CPU in 1/100 s

const task = (agent: string, i: number) => ({ name: 'task', input: { subagent_type: agent, description: `Part ${i}`, prompt: `Look at part ${i}` } })

/** CPU ms of this process and of the children it has waited for (git, bash). */
function cpuMs(): number {
  const own = process.cpuUsage()
  const stat = fs.readFileSync('/proc/self/stat', 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // after the command name: state is field 3; cutime and cstime are fields 16 and 17 (1-based over the whole line)
  const children = (Number(fields[13]) + Number(fields[14])) * TICK_MS
  return (own.user + own.system) / 1000 + children
}

/** `writes`: each child is a worker that writes a file of its own (and the root's turn is a writing one); else explore children that read. */
function harness(checkpoints: boolean, files: Record<string, string>, writes: boolean): Promise<Harness> {
  const child = writes ? 'worker' : 'explore'
  return createHarness({
    files,
    agents: { worker: { mode: 'subagent' } },
    headlessRun: { yes: true, allow: [] },
    config: { subagents: { maxConcurrent: N }, checkpoints: { enabled: checkpoints } },
    script: {
      agents: {
        build: [
          { step: 1, repeat: true, text: 'Splitting the work.', tools: Array.from({ length: N }, (_, i) => task(child, i)) },
          { step: 2, repeat: true, text: 'All parts reported.' },
        ],
        explore: [{ repeat: true, text: 'Part looked at.' }],
        worker: [
          { step: 1, repeat: true, tools: [{ name: 'write_file', input: { path: 'out/part.txt', content: 'written\n' } }] },
          { step: 2, repeat: true, text: 'Part written.' },
        ],
        '*': [{ repeat: true, text: 'Fan-out' }],
      },
    },
  })
}

async function measure(name: string, files: Record<string, string>, writes: boolean): Promise<Record<string, unknown>> {
  const on = await harness(true, files, writes)
  const off = await harness(false, files, writes)
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
    if (recorded !== (writes ? 1 : 0) || off.host.store.checkpoints.checkpointWorkspaces().length !== 0) throw new Error(`checkpoints: ${recorded} workspaces recorded on the host with checkpoints, expected ${writes ? 1 : 0}`)
    const [cOn, cOff] = [median(cpu.on), median(cpu.off)]
    return {
      workspace: name,
      children: writes ? 'each writes a file' : 'read only',
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

/**
 * A whole `agentry run --yes` (its own host) of a fan-out of 16 workers that each write a file, against a loopback
 * openai-compatible server: the CPU of the command and of everything it waited for, checkpoints on and off.
 */
async function throughCli(): Promise<Record<string, unknown>> {
  type Body = { messages: { role: string; content?: unknown }[]; tools?: { function: { name: string } }[] }
  const server = await startScriptedChatServer({
    respond: (raw) => {
      const b = raw as Body
      const last = b.messages[b.messages.length - 1]
      const firstUser = JSON.stringify(b.messages.find((m) => m.role === 'user')?.content ?? '')
      // By the prompt, not the tools: a worker has `task` too (and answering it with 16 more tasks would recurse).
      const isRoot = firstUser.includes('fan out and write')
      const isWorker = firstUser.includes('Look at part')
      if (isRoot) {
        if (last.role === 'tool') return { text: 'All parts reported.' }
        return { text: 'Splitting the work. ', toolCalls: Array.from({ length: N }, (_, i) => ({ name: 'task', arguments: task('worker', i).input })) }
      }
      if (isWorker && last.role !== 'tool') return { text: '', toolCalls: [{ name: 'write_file', arguments: { path: `out/part-${Math.random().toString(36).slice(2, 8)}.txt`, content: 'written\n' } }] }
      return { text: 'Part written.' }
    },
  })
  const homes = { on: tempDir('bench-ckpt-on'), off: tempDir('bench-ckpt-off') }
  const work = tempDir('bench-ckpt-work')
  try {
    writeFiles(work, { '.agents/agents/worker.md': '---\ndescription: Writes one file\nmode: subagent\n---\nWrite the file you are asked to.\n', 'README.md': '# bench\n' })
    for (const [key, home] of Object.entries(homes)) {
      writeFiles(home, {
        'config.yaml': { model: 'mock/m', providers: { mock: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } }, subagents: { maxConcurrent: N }, checkpoints: { enabled: key === 'on' } },
      })
    }
    const cpu = { on: [] as number[], off: [] as number[] }
    const wall = { on: [] as number[], off: [] as number[] }
    for (let i = 0; i <= ROUNDS; i++) {
      for (const key of ['on', 'off'] as const) {
        const c0 = cpuMs()
        const r = await agentry(['run', '--yes', 'fan out and write'], { home: homes[key], cwd: work })
        const c = cpuMs() - c0
        if (r.code !== 0 || r.stdout !== 'All parts reported.\n') throw new Error(`agentry run failed (exit ${r.code}): ${r.stderr || r.stdout}`)
        if (i === 0) continue
        cpu[key].push(c)
        wall[key].push(r.ms)
      }
    }
    const [cOn, cOff] = [median(cpu.on), median(cpu.off)]
    return {
      workspace: 'agentry run (own host), loopback provider',
      children: 'each writes a file',
      cpuMs: { on: round(cOn), off: round(cOff) },
      wallMs: { on: round(median(wall.on)), off: round(median(wall.off)) },
      overheadPercent: round(((cOn - cOff) / cOff) * 100),
    }
  } finally {
    await server.close()
    for (const dir of [...Object.values(homes), work]) fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const small = { 'README.md': '# a project\n', 'src/index.ts': 'export const x = 1\n' }
  const project: Record<string, string> = {}
  for (let i = 0; i < 2000; i++) project[path.join(`src${i % 100}`, `file${i}.ts`)] = `export const v${i} = ${i}\n`.repeat(20)
  const rows = [await measure('small', small, false), await measure('2,000 files', project, false), await measure('small', small, true), await measure('2,000 files', project, true)]
  buildCli()
  rows.push(await throughCli())
  const worst = Math.max(...rows.map((r) => r.overheadPercent as number))
  return { bench: 'checkpoint-turn', n: N, rounds: ROUNDS, rows, target: { overheadPercent: TARGET_PERCENT }, met: worst < TARGET_PERCENT }
}

runIfMain(import.meta.url, run)
