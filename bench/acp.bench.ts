/**
 * `agentry acp` benchmark (issue 17), driven by the ACP SDK's own client as an editor would drive it:
 * - first answer: process start → `initialize` → `session/new` → `session/prompt` of a one-line answer, until the first
 *   `agent_message_chunk` arrives (target < 300 ms after process start);
 * - fan-out of 16: a prompt whose first step calls `task` 16 times, process start to its end, beside the same prompt
 *   through `agentry run` (target < 2× that), alternating the two so both see the same machine load.
 * Both on a host of the process's own (no app or daemon running); the first answer also attached to `agentry serve`.
 * Besides wall time, the CPU the agent process used until its first chunk (the machine here is shared and loaded). Run: `npx tsx bench/acp.bench.ts` (prints JSON).
 */
import fs from 'node:fs'
import path from 'node:path'
import { methods } from '@agentclientprotocol/sdk'
import { agentry, buildCli, spawnAgentry, tempDir, writeFiles } from '../src-main/cli/testing/cli-process'
import { initialize, startAcp } from '../src-main/acp/testing/acp-client'
import { median, round, runIfMain } from './stats'

const RUNS = 7
const FANOUT = 16

const SCRIPT = {
  agents: {
    build: [
      { match: 'one line', text: 'One line.', repeat: true },
      {
        match: 'fan out',
        step: 1,
        repeat: true,
        text: 'Splitting.',
        tools: Array.from({ length: FANOUT }, (_, i) => ({ name: 'task', input: { subagent_type: 'explore', description: `Part ${i + 1}`, prompt: `part ${i + 1}` } })),
      },
      { match: 'fan out', step: 2, repeat: true, text: 'All parts reported.' },
    ],
    explore: [{ repeat: true, text: 'part done' }],
    '*': [{ repeat: true, text: 'Title' }],
  },
}

/** CPU (user + system) the process has used so far, from the kernel's accounting (Linux), in ms. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return null // not Linux: wall time only
  }
}

interface AcpSample {
  firstChunkMs: number
  /** CPU the agentry process used until the first chunk arrived: what a quiet machine's wall time would be made of */
  firstChunkCpuMs: number | null
  answerMs: number
  exitMs: number
}

async function acpRun(home: string, work: string, env: Record<string, string>, prompt: string): Promise<AcpSample> {
  const started = performance.now()
  const p = startAcp({ home, cwd: work, env })
  let firstChunkCpuMs: number | null = null
  try {
    await initialize(p)
    const { sessionId } = await p.agent.request(methods.agent.session.new, { cwd: work, mcpServers: [] })
    const first = p
      .waitForUpdate((u) => u.update.sessionUpdate === 'agent_message_chunk')
      .then(() => {
        firstChunkCpuMs = cpuMs(p.child.pid)
        return performance.now() - started
      })
    const result = await p.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: prompt }] })
    if (result.stopReason !== 'end_turn') throw new Error(`acp prompt ended ${result.stopReason}: ${p.stderr()}`)
    const answerMs = performance.now() - started
    const firstChunkMs = await first
    const code = await p.close()
    if (code !== 0) throw new Error(`agentry acp exited ${code}: ${p.stderr()}`)
    return { firstChunkMs, firstChunkCpuMs, answerMs, exitMs: performance.now() - started }
  } finally {
    if (p.child.exitCode === null) p.child.kill()
  }
}

export async function run(): Promise<Record<string, unknown>> {
  buildCli()
  const home = tempDir('bench-acp-home')
  const work = tempDir('bench-acp-work')
  writeFiles(home, { 'script.yaml': SCRIPT, 'config.yaml': 'model: script/x\n' })
  const env = { AGENTRY_SCRIPT: path.join(home, 'script.yaml') }
  try {
    // Warm the compile cache and the parse cache once, as any second start would find them.
    await acpRun(home, work, env, 'one line please')
    const first: AcpSample[] = []
    for (let i = 0; i < RUNS; i++) first.push(await acpRun(home, work, env, 'one line please'))
    // The same with `agentry serve` already running: the editor's agent attaches to its host instead of starting one.
    const daemon = spawnAgentry(['serve', '--port', '0'], { home, cwd: work, env })
    const attached: AcpSample[] = []
    try {
      await daemon.waitFor(/running at http/)
      for (let i = 0; i < RUNS; i++) attached.push(await acpRun(home, work, env, 'one line please'))
    } finally {
      daemon.child.kill('SIGINT')
      await daemon.exited
    }
    const wall = first.map((x) => x.firstChunkMs)
    const cpu = first.map((x) => x.firstChunkCpuMs).filter((x): x is number => x !== null)

    const viaAcp: number[] = []
    const viaRun: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now()
      const r = await agentry(['run', 'fan out now'], { home, cwd: work, env })
      if (r.code !== 0 || r.stdout.trim() !== 'All parts reported.') throw new Error(`agentry run fan-out failed (${r.code}): ${r.stderr}`)
      viaRun.push(performance.now() - t0)
      viaAcp.push((await acpRun(home, work, env, 'fan out now')).exitMs)
    }
    const ratio = median(viaAcp) / median(viaRun)
    return {
      bench: 'acp',
      runs: RUNS,
      firstChunk: {
        medianMs: round(median(wall)),
        minMs: round(Math.min(...wall)),
        maxMs: round(Math.max(...wall)),
        cpuMedianMs: cpu.length ? round(median(cpu)) : null,
        attachedMedianMs: round(median(attached.map((x) => x.firstChunkMs))),
        attachedCpuMedianMs: attached.some((x) => x.firstChunkCpuMs !== null) ? round(median(attached.map((x) => x.firstChunkCpuMs ?? 0))) : null,
        targetMs: 300,
        ok: median(wall) < 300,
      },
      fanout16: {
        acpMedianMs: round(median(viaAcp)),
        runMedianMs: round(median(viaRun)),
        ratio: round(ratio, 2),
        acpMinMs: round(Math.min(...viaAcp)),
        runMinMs: round(Math.min(...viaRun)),
        target: '< 2×',
        ok: ratio < 2,
      },
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true })
    fs.rmSync(work, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
