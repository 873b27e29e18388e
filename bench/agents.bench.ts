/**
 * Agent loading (issue 13): 500 agent files — the real corpus files (Claude Code and opencode), repeated under new
 * names until there are 500, in the folders their hosts read, 100 in subfolders.
 * (a) in process: a fresh AgentRegistry's first resolve() (list, read, parse, map every file), median of 7.
 *     Target < 150 ms. Also: a fresh registry whose data dir has the parse cache (a later start), and a repeated
 *     resolve() on the same registry (what every prompt and spawn pays).
 * (b) `agentry agents` on that workspace against an empty one: spawn to exit, median of 7 each, interleaved.
 *     Target: < 2× the empty workspace, for both a first run (no parse cache in the data dir: everything is parsed
 *     and the cache written; median of 7 with the cache removed before each) and a later one (the cache is used).
 * Run: `npx tsx bench/agents.bench.ts` (prints JSON). The bench runner imports run().
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { AgentRegistry } from '../src-main/agents'
import { agentry, buildCli, tempDir } from '../src-main/cli/testing/cli-process'
import { median, round, runIfMain } from './stats'

const FILES = 500
const RUNS = 7
const IN_PROCESS_TARGET_MS = 150
const CLI_RATIO_TARGET = 2
const CORPUS = fileURLToPath(new URL('../src-main/agents/testing/corpus/', import.meta.url))

function corpusFiles(): { host: 'claude' | 'opencode'; text: string }[] {
  const out: { host: 'claude' | 'opencode'; text: string }[] = []
  for (const host of ['claude', 'opencode'] as const) {
    for (const collection of fs.readdirSync(path.join(CORPUS, host))) {
      const dir = path.join(CORPUS, host, collection)
      for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.md')).sort()) out.push({ host, text: fs.readFileSync(path.join(dir, f), 'utf8') })
    }
  }
  return out
}

/** 500 files in `.claude/agents` and `.opencode/agent`, each with a name of its own. */
function writeWorkspace(work: string): number {
  const corpus = corpusFiles()
  let bytes = 0
  for (let i = 0; i < FILES; i++) {
    const { host, text } = corpus[i % corpus.length]
    const folder = host === 'claude' ? path.join(work, '.claude', 'agents') : path.join(work, '.opencode', 'agent')
    const sub = i % 5 === 0 ? `team-${i % 7}` : ''
    const file = path.join(folder, sub, `agent-${i}.md`)
    // A distinct name per copy, so 500 agents load (not 238 and 262 duplicates).
    const renamed = text.replace(/^name:.*$/m, `name: agent-${i}`)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, renamed)
    bytes += renamed.length
  }
  return bytes
}

export async function run(): Promise<Record<string, unknown>> {
  const home = tempDir('bench-agents-home')
  const work = tempDir('bench-agents-work')
  const empty = tempDir('bench-agents-empty')
  try {
    const bytes = writeWorkspace(work)
    const cold: number[] = []
    const coldCpu: number[] = []
    const warm: number[] = []
    let loaded = 0
    let errors = 0
    for (let i = 0; i < RUNS; i++) {
      // No persisted parses: this measures parsing every file, as a first start does.
      const registry = new AgentRegistry({ dataDir: home, persistParses: false })
      const t0 = performance.now()
      const c0 = process.cpuUsage()
      const r = registry.resolve(work)
      cold.push(performance.now() - t0)
      const c = process.cpuUsage(c0)
      // CPU time too: on a shared machine the wall time also counts other processes' turns.
      coldCpu.push((c.user + c.system) / 1000)
      const t1 = performance.now()
      registry.resolve(work)
      warm.push(performance.now() - t1)
      loaded = r.agents.filter((a) => a.source.kind === 'project').length
      errors = r.errors.length
      registry.dispose()
    }

    // A later start: the frontmatters come from the parse cache in the data dir (files are still listed and read).
    const cacheHome = tempDir('bench-agents-cache-home')
    new AgentRegistry({ dataDir: cacheHome, watch: false }).resolve(work)
    const fromCache: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const registry = new AgentRegistry({ dataDir: cacheHome, watch: false })
      const t0 = performance.now()
      registry.resolve(work)
      fromCache.push(performance.now() - t0)
    }
    fs.rmSync(cacheHome, { recursive: true, force: true })

    buildCli()
    const timed = async (cwd: string): Promise<number> => {
      const r = await agentry(['agents', '--json'], { home, cwd })
      if (r.code !== 0) throw new Error(`agentry agents failed (exit ${r.code}): ${r.stderr}`)
      return r.ms
    }
    await timed(empty) // Node's compile cache for the bundle
    // A first run over the 500 files parses them all and writes {dataDir}/cache/agent-files.json; later runs
    // parse only what changed. Both are reported, each a median of RUNS, interleaved with the empty workspace.
    const parseCache = path.join(home, 'cache', 'agent-files.json')
    const cliEmpty: number[] = []
    const cliFull: number[] = []
    const cliFirst: number[] = []
    for (let i = 0; i < RUNS; i++) {
      fs.rmSync(parseCache, { force: true })
      cliFirst.push(await timed(work))
      if (!fs.existsSync(parseCache)) throw new Error(`agentry agents did not write its parse cache ${parseCache}`)
      cliEmpty.push(await timed(empty))
      cliFull.push(await timed(work))
    }
    const firstRunMs = median(cliFirst)
    const coldMs = median(cold)
    const ratio = median(cliFull) / median(cliEmpty)
    return {
      bench: 'agents',
      files: FILES,
      kiB: round(bytes / 1024),
      agentsLoaded: loaded,
      loadErrors: errors,
      inProcess: { firstResolveMs: round(coldMs), firstResolveMinMs: round(Math.min(...cold)), firstResolveCpuMs: round(median(coldCpu)), withParseCacheMs: round(median(fromCache)), cachedResolveMs: round(median(warm), 2), runs: RUNS, targetMs: IN_PROCESS_TARGET_MS, pass: coldMs < IN_PROCESS_TARGET_MS },
      cli: {
        emptyMs: round(median(cliEmpty)),
        with500Ms: round(median(cliFull)),
        minRatio: round(Math.min(...cliFull) / Math.min(...cliEmpty), 2),
        ratio: round(ratio, 2),
        firstRunWith500Ms: round(firstRunMs),
        firstRunRatio: round(firstRunMs / median(cliEmpty), 2),
        targetRatio: CLI_RATIO_TARGET,
        pass: ratio < CLI_RATIO_TARGET && firstRunMs / median(cliEmpty) < CLI_RATIO_TARGET,
      },
      pass: coldMs < IN_PROCESS_TARGET_MS && ratio < CLI_RATIO_TARGET && firstRunMs / median(cliEmpty) < CLI_RATIO_TARGET,
    }
  } finally {
    for (const dir of [home, work, empty]) fs.rmSync(dir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
