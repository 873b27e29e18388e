/**
 * Subagent power features (issue 16):
 * (a) fork of a 200-message session: from the parent's `task` call (its tool_call_start event) to the fork's first
 *     request arriving at a loopback openai-compatible server, median of RUNS (target < 50 ms).
 * (b) worktree isolation on a 10,000-file repository: `git worktree add` of a fresh branch plus its removal (folder
 *     and branch), as a child with no changes goes through it, median of RUNS (target < 1.5 s).
 * Run: `npx tsx bench/subagent-power.bench.ts` (prints JSON). The bench runner imports run().
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { AgentEvent } from '../src-shared'
import { startScriptedChatServer } from '../src-main/models/testing'
import { finishWorktree, openWorktree } from '../src-main/subagents/worktree'
import { createHarness, flatten } from '../src-main/testing/harness'
import { median, round, runIfMain } from './stats'

const RUNS = 5
const HISTORY = 200
const FILES = 10_000
const TARGETS = { forkFirstRequestMs: 50, worktreeMs: 1500 }

type ChatRequest = { messages: { role: string; content?: unknown }[] }
const hasDirective = (r: ChatRequest) => JSON.stringify(r.messages).includes('<fork_directive>')

async function forkBench(): Promise<Record<string, unknown>> {
  const arrivals: number[] = []
  const server = await startScriptedChatServer({
    respond: (body) => {
      const r = body as ChatRequest
      if (hasDirective(r)) {
        arrivals.push(Date.now())
        return { text: 'fork done' }
      }
      if (JSON.stringify(r.messages.at(-1)).includes('[Automated notice, not from the user]')) return { text: 'noted' }
      const last = JSON.stringify(r.messages.at(-1))
      if (last.includes('fork now')) return { toolCalls: [{ name: 'task', arguments: { subagent_type: 'fork', description: 'Fork it', prompt: 'carry on from here' } }] }
      return { text: 'parent goes on' }
    },
  })
  const h = await createHarness({
    config: { model: 'loop/m', smallModel: 'script/small', providers: { loop: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } } },
    script: { agents: { '*': [{ text: 'Fork bench', repeat: true }] } },
  })
  try {
    const samples: number[] = []
    for (let run = 0; run <= RUNS; run++) {
      const { session } = await h.host.api.calls['sessions.create']({ workspaceRoot: h.workdir })
      // 200 stored messages of ordinary length before the turn that forks.
      for (let i = 0; i < HISTORY; i++) {
        const role = i % 2 === 0 ? 'user' : 'assistant'
        const m = h.host.store.transcript.createMessage({ sessionId: session.id, role, metadata: {} })
        h.host.store.transcript.upsertPart({ id: `prt_b${run}_${i}`, messageId: m.id, sessionId: session.id, index: 0, type: 'text', data: { text: `message ${i}: ${'lorem ipsum dolor sit amet '.repeat(12)}` }, toolCallId: null, toolState: null })
      }
      h.host.store.flush()
      const before = arrivals.length
      const from = h.events.length
      await h.run('fork now', { sessionId: session.id })
      const call = flatten(h.events.slice(from).map((e) => e.event)).find(({ path, event }) => path.length === 0 && event.type === 'tool_call_start' && (event as Extract<AgentEvent, { type: 'tool_call_start' }>).toolName === 'task')
      if (!call || arrivals.length === before) throw new Error('the fork never sent a request')
      // The first run warms the process up (module loading, statement caches); it is not counted.
      if (run > 0) samples.push(arrivals[before] - call.event.at)
    }
    return { historyMessages: HISTORY, runs: RUNS, samplesMs: samples, medianMs: median(samples), targetMs: TARGETS.forkFirstRequestMs, ok: median(samples) < TARGETS.forkFirstRequestMs }
  } finally {
    await h.close()
    await server.close()
  }
}

async function worktreeBench(): Promise<Record<string, unknown>> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-wt-bench-'))
  const repo = path.join(root, 'repo')
  const dataDir = path.join(root, 'data')
  try {
    for (let d = 0; d < 100; d++) {
      fs.mkdirSync(path.join(repo, `dir${d}`), { recursive: true })
      for (let f = 0; f < FILES / 100; f++) fs.writeFileSync(path.join(repo, `dir${d}`, `file${f}.ts`), `export const v${d}_${f} = ${f}\n`)
    }
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: repo, stdio: 'pipe' })
    git('init', '-q', '-b', 'main')
    git('add', '-A')
    git('commit', '-q', '-m', 'ten thousand files')
    const samples: number[] = []
    for (let run = 0; run <= RUNS; run++) {
      const started = performance.now()
      const { worktree } = await openWorktree(repo, dataDir, `ses_bench${run}`)
      const closed = await finishWorktree(worktree, 'bench')
      const ms = performance.now() - started
      if (closed.state !== 'removed' || fs.existsSync(worktree.path)) throw new Error('the unchanged worktree was not removed')
      if (run > 0) samples.push(round(ms))
    }
    return { files: FILES, runs: RUNS, samplesMs: samples, medianMs: median(samples), targetMs: TARGETS.worktreeMs, ok: median(samples) < TARGETS.worktreeMs }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

export async function run(): Promise<Record<string, unknown>> {
  return { fork200: await forkBench(), worktree10k: await worktreeBench() }
}

runIfMain(import.meta.url, run)
