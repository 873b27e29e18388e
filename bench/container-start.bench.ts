/**
 * Container benchmark (issue 29): a child's container from start to its first command done, side by side with a
 * bubblewrap start (the bash sandbox: prepareCommand + spawn of `true`), and the per-command cost of `exec` in a running
 * container against a bubblewrap command (medians of N). Target: start to first command < 1.5 s with a local image.
 *
 * The engine: AGENTRY_BENCH_ENGINE (+ AGENTRY_BENCH_IMAGE), else the tests' Podman service and image
 * (src-main/containers/testing/podman.ts). Run: `npx tsx bench/container-start.bench.ts` (prints one JSON object).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { createDockerRunner } from '../src-main/containers/docker-runner'
import type { ContainerHandle, ExecOptions } from '../src-main/containers/runner'
import { podmanEngine } from '../src-main/containers/testing/podman'
import { DEFAULT_SANDBOX_POLICY, detectSandbox, prepareCommand } from '../src-main/sandbox'
import { median, percentile, round, runIfMain } from './stats'

const STARTS = 10
const EXECS = 40

async function engine(): Promise<{ url: string; image: string }> {
  if (process.env.AGENTRY_BENCH_ENGINE) return { url: process.env.AGENTRY_BENCH_ENGINE, image: process.env.AGENTRY_BENCH_IMAGE ?? 'agentry-sandbox:latest' }
  const e = await podmanEngine()
  if ('reason' in e) throw new Error(`no container engine: ${e.reason}`)
  return e
}

/** One bash sandbox command from nothing to its exit, as the bash tool runs it. */
async function bwrapTrue(workdir: string): Promise<number> {
  const started = performance.now()
  const p = await prepareCommand('true', { workdir, policy: DEFAULT_SANDBOX_POLICY, env: process.env })
  await new Promise<void>((resolve, reject) => {
    const child = spawn(p.file, p.args, { cwd: workdir, env: p.env, stdio: [p.watchdog ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
    child.on('error', reject)
    child.on('exit', () => resolve())
  })
  const ms = performance.now() - started
  p.cleanup()
  return ms
}

const stats = (samples: number[]) => ({ medianMs: round(median(samples)), p90Ms: round(percentile(samples, 90)), minMs: round(Math.min(...samples)) })

export async function run(): Promise<Record<string, unknown>> {
  const e = await engine()
  const workdir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-bench-ct-')))
  const runner = createDockerRunner({ engine: e.url, image: e.image }, {})
  const status = await runner.status()
  if (!status.ok) throw new Error(status.message)
  const opts = (): ExecOptions => ({ cwd: workdir, timeoutMs: 30_000, signal: new AbortController().signal, maxChars: 10_000 })
  const owner = `bench-${process.pid}`
  const spec = (i: number) => ({ sessionId: `bench-${process.pid}-${i}`, rootSessionId: 'bench', owner, image: e.image, mounts: [{ path: workdir }], workdir, network: false, limits: { cpus: 2, memoryMb: 512, pids: 256 } })
  try {
    // warm-up: one of each (first connection, page cache)
    const warm = await runner.start(spec(-1))
    await warm.exec('true', opts())
    await warm.remove()
    const support = await detectSandbox(process.env)
    await bwrapTrue(workdir)

    const start: number[] = []
    const createOnly: number[] = []
    const remove: number[] = []
    for (let i = 0; i < STARTS; i++) {
      const t0 = performance.now()
      const h = await runner.start(spec(i))
      const t1 = performance.now()
      const r = await h.exec('true', opts())
      if (r.exitCode !== 0) throw new Error(`true exited ${r.exitCode}: ${r.output}`)
      start.push(performance.now() - t0)
      createOnly.push(t1 - t0)
      const t2 = performance.now()
      await h.remove()
      remove.push(performance.now() - t2)
    }
    const bwrapStart: number[] = []
    for (let i = 0; i < STARTS; i++) bwrapStart.push(await bwrapTrue(workdir))

    const h: ContainerHandle = await runner.start(spec(STARTS))
    const exec: number[] = []
    try {
      for (let i = 0; i < EXECS; i++) {
        const t = performance.now()
        await h.exec('true', opts())
        exec.push(performance.now() - t)
      }
    } finally {
      await h.remove()
    }
    const bwrapExec: number[] = []
    for (let i = 0; i < EXECS; i++) bwrapExec.push(await bwrapTrue(workdir))

    return {
      engine: `${status.kind} ${status.version}`,
      image: e.image,
      sandbox: support.kind,
      startToFirstCommand: { ...stats(start), createAndStartMs: round(median(createOnly)), removeMs: round(median(remove)), n: STARTS, targetMs: 1500 },
      bwrapStartToExit: { ...stats(bwrapStart), n: STARTS },
      execTrue: { ...stats(exec), n: EXECS },
      bwrapTrue: { ...stats(bwrapExec), n: EXECS },
      execOverheadVsBwrapMs: round(median(exec) - median(bwrapExec)),
    }
  } finally {
    await runner.sweep(owner, () => false).catch(() => {})
    fs.rmSync(workdir, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
