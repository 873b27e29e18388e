/**
 * MCP benchmark (issue 15), against @modelcontextprotocol/server-everything over stdio (installed in node_modules):
 * (a) first MCP tool call in a fresh host: from sending the prompt to the tool's result, the server not running and
 *     its tools not known (start + initialize + tools/list + the call), and with its tool list cached by an earlier
 *     host (start + initialize + the call). Target: < 1.5 s.
 * (b) later calls: our whole tool path (argument check against the server's schema, permission gate, call, result
 *     mapping) per `echo` call vs the SDK client calling the same server directly. Target: < 5 ms added.
 * (c) `agentry run` (built CLI, process spawn to exit) for a prompt that calls no tool, with 20 configured servers vs
 *     none, alternating: after the servers' tools are known (`agentry mcp list` ran once) — the servers never start
 *     — and, for the record, the very first run with nothing known (the 20 are started to learn their tools).
 *     Target: < 10 % over none.
 * Run: `npx tsx bench/mcp.bench.ts` (prints JSON). The bench runner imports run().
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { AgentEvent } from '../src-shared'
import { agentry, buildCli, tempDir, writeFiles, type CliOptions } from '../src-main/cli/testing/cli-process'
import type { McpServerEntry } from '../src-main/config'
import { McpPool } from '../src-main/mcp'
import { runTool } from '../src-main/tools'
import { makeContext } from '../src-main/tools/testing/test-context'
import { createHarness } from '../src-main/testing/harness'
import { median, percentile, round, runIfMain } from './stats'

const EVERYTHING = {
  command: process.execPath,
  args: [fileURLToPath(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url)), 'stdio'],
}
const TARGETS = { firstCallMs: 1500, addedPerCallMs: 5, idleServersOverhead: 0.1 }
const FIRST_RUNS = 5
const CALLS = 300
const CLI_RUNS = 8

/** (a) prompt → tool_call_end of the first MCP call, on a host that has never run the server. */
async function firstCall(cached: boolean): Promise<number[]> {
  const times: number[] = []
  let cacheDir: string | undefined
  for (let i = 0; i < FIRST_RUNS; i++) {
    const h = await createHarness({
      permissions: JSON.stringify({ '*': 'allow' }),
      config: { mcp: { everything: EVERYTHING } },
      script: { agents: { build: [{ step: 1, tools: [{ name: 'mcp__everything__echo', input: { message: 'first' } }] }, { step: 2, text: 'done' }] } },
    })
    try {
      if (cached) {
        // A previous host listed the server's tools: its cache is what a new host starts from.
        if (!cacheDir) {
          await h.host.api.calls['mcp.list']({ workspaceRoot: h.workdir, start: true })
          cacheDir = tempDir('bench-mcp-cache')
          fs.cpSync(path.join(h.dataDir, 'cache'), cacheDir, { recursive: true })
          await h.host.api.calls['mcp.control']({ workspaceRoot: h.workdir, name: 'everything', action: 'stop' })
          await h.close()
          i--
          continue
        }
        fs.cpSync(cacheDir, path.join(h.dataDir, 'cache'), { recursive: true })
      }
      const started = performance.now()
      let ended = 0
      const off = h.host.hub.subscribe({ sessionId: 'all', afterSeq: 0 }, (m) => {
        if (m.kind === 'event' && m.event.event.type === 'tool_call_end' && !ended) ended = performance.now()
      })
      const r = await h.run('call it')
      off()
      const end = r.events.find((e): e is Extract<AgentEvent, { type: 'tool_call_end' }> => e.type === 'tool_call_end')
      if (!end?.ok) throw new Error(`the MCP call failed: ${end?.output}`)
      times.push(ended - started)
    } finally {
      await h.close()
    }
  }
  if (cacheDir) fs.rmSync(cacheDir, { recursive: true, force: true })
  return times
}

/** (b) per-call time: the SDK client alone vs our tool path, alternating blocks on two connections to the server. */
async function laterCalls(): Promise<Record<string, unknown>> {
  const data = tempDir('bench-mcp-data')
  const workdir = tempDir('bench-mcp-work')
  const pool = new McpPool({ dataDir: data, env: process.env })
  const raw = new Client({ name: 'bench', version: '0' })
  try {
    await raw.connect(new StdioClientTransport({ ...EVERYTHING, stderr: 'ignore' }))
    const entry: McpServerEntry = { name: 'everything', config: EVERYTHING, source: { file: 'bench', scope: 'user' }, needsTrust: false, errors: [], notes: [] }
    const { tools } = await pool.toolsFor(workdir, [entry])
    const echo = tools.find((t) => t.name === 'mcp__everything__echo')
    if (!echo) throw new Error('no echo tool')
    const ctx = makeContext({ workdir })
    const ours: number[] = []
    const direct: number[] = []
    // Warm both paths (JIT, schema compilation), then alternate blocks of 10 so load swings hit both alike.
    for (let i = 0; i < 20; i++) {
      await raw.callTool({ name: 'echo', arguments: { message: 'warm' } })
      await runTool(echo, { message: 'warm' }, ctx)
    }
    for (let block = 0; block < CALLS / 10; block++) {
      for (let i = 0; i < 10; i++) {
        const t = performance.now()
        await raw.callTool({ name: 'echo', arguments: { message: `m${i}` } })
        direct.push(performance.now() - t)
      }
      for (let i = 0; i < 10; i++) {
        const t = performance.now()
        const r = await runTool(echo, { message: `m${i}` }, ctx)
        ours.push(performance.now() - t)
        if (!r.ok) throw new Error(r.output)
      }
    }
    ctx.cleanup()
    const added = median(ours) - median(direct)
    return {
      calls: CALLS,
      directMedianMs: round(median(direct), 2),
      directP90Ms: round(percentile(direct, 90), 2),
      oursMedianMs: round(median(ours), 2),
      oursP90Ms: round(percentile(ours, 90), 2),
      addedMedianMs: round(added, 2),
      targetMs: TARGETS.addedPerCallMs,
      pass: added < TARGETS.addedPerCallMs,
    }
  } finally {
    await raw.close()
    await pool.dispose()
    fs.rmSync(data, { recursive: true, force: true })
    fs.rmSync(workdir, { recursive: true, force: true })
  }
}

/** (c) `agentry run` with 20 configured servers vs none. */
async function idleServers(): Promise<Record<string, unknown>> {
  buildCli()
  const homes = { none: tempDir('bench-mcp-none'), twenty: tempDir('bench-mcp-twenty'), cold: tempDir('bench-mcp-cold') }
  const work = tempDir('bench-mcp-cli-work')
  const servers = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`server${i}`, EVERYTHING]))
  try {
    for (const [name, home] of Object.entries(homes)) {
      writeFiles(home, {
        'script.yaml': { agents: { '*': [{ text: 'hello', repeat: true }] } },
        'config.yaml': { model: 'script/x', ...(name === 'none' ? {} : { mcp: servers }) },
      })
    }
    const opts = (home: string): CliOptions => ({ home, cwd: work, env: { AGENTRY_SCRIPT: path.join(home, 'script.yaml') } })
    const runOnce = async (home: string) => {
      const r = await agentry(['run', 'hi'], opts(home))
      if (r.code !== 0 || r.stdout !== 'hello\n') throw new Error(`agentry run failed (${r.code}): ${r.stderr}`)
      return r.ms
    }
    // The first run with nothing known starts the 20 servers to learn their tools (once).
    const coldMs = await runOnce(homes.cold)
    // Learned once, as `agentry mcp list` does; from then on runs start none of them.
    const listed = await agentry(['mcp', 'list', '--json'], opts(homes.twenty))
    if (listed.code !== 0) throw new Error(`agentry mcp list failed: ${listed.stderr}`)
    await runOnce(homes.none)
    await runOnce(homes.twenty)
    const none: number[] = []
    const twenty: number[] = []
    for (let i = 0; i < CLI_RUNS; i++) {
      none.push(await runOnce(homes.none))
      twenty.push(await runOnce(homes.twenty))
    }
    const ratio = median(twenty) / median(none)
    return {
      runs: CLI_RUNS,
      noServersMedianMs: round(median(none)),
      twentyServersMedianMs: round(median(twenty)),
      overhead: round(ratio - 1, 3),
      firstRunNothingKnownMs: round(coldMs),
      target: `< ${TARGETS.idleServersOverhead * 100} % over none`,
      pass: ratio - 1 < TARGETS.idleServersOverhead,
    }
  } finally {
    for (const d of [...Object.values(homes), work]) fs.rmSync(d, { recursive: true, force: true })
  }
}

export async function run(): Promise<Record<string, unknown>> {
  const cold = await firstCall(false)
  const warm = await firstCall(true)
  return {
    bench: 'mcp',
    firstCall: {
      runs: FIRST_RUNS,
      toolsUnknownMedianMs: round(median(cold)),
      toolsUnknownMaxMs: round(Math.max(...cold)),
      toolsCachedMedianMs: round(median(warm)),
      targetMs: TARGETS.firstCallMs,
      pass: median(cold) < TARGETS.firstCallMs,
    },
    laterCalls: await laterCalls(),
    idleServers: await idleServers(),
  }
}

runIfMain(import.meta.url, run)
