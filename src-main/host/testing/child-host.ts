import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import type { SequencedEvent } from '../../../src-shared'

/** Restart-test plumbing: a real host running in a child process (host-process.ts) that a test can SIGKILL. */
import type { Fixture } from '../../testing/fixture'
export { createFixture, type Fixture } from '../../testing/fixture'

export interface ChildHost {
  pid: number
  sessionId?: string
  /** the sessions of `prompts`, in order */
  sessionIds: string[]
  /** events the child delivered (so: committed to its store), in order */
  events: SequencedEvent[]
  /** poll until `cond` holds; fails early with the child's stderr if it exits */
  until(cond: () => boolean, what: string, ms?: number): Promise<void>
  /** SIGKILL and wait until the process is gone */
  kill(): Promise<void>
}

/**
 * Bundles host-process.ts once (a tsx start costs ~2 s per spawn; the bundle starts in a fraction of that). The
 * bundle lives under node_modules/.cache so bare imports (better-sqlite3) resolve from the repo's node_modules.
 */
const here = path.dirname(fileURLToPath(import.meta.url))

export async function bundleHostProcess(): Promise<{ file: string; dispose(): void }> {
  const repo = path.resolve(here, '../../..')
  const cache = path.join(repo, 'node_modules', '.cache')
  fs.mkdirSync(cache, { recursive: true })
  const dir = fs.mkdtempSync(path.join(cache, 'agentry-restart-'))
  const file = path.join(dir, 'host-process.mjs')
  await build({
    entryPoints: [path.join(here, 'host-process.ts')],
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'node',
    // Same reasons as scripts/build-cli.mjs: jsonc-parser's ESM build bundles cleanly, native modules stay outside.
    mainFields: ['module', 'main'],
    target: 'node22',
    external: ['better-sqlite3', 'electron', 'dockerode'],
    banner: { js: "import { createRequire as __agentryRequire } from 'node:module'; const require = __agentryRequire(import.meta.url);" },
    logLevel: 'warning',
  })
  return { file, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

export async function startChildHost(
  bundle: string,
  f: Fixture,
  o: { prompt?: string; agent?: string; headless?: boolean; prompts?: { text: string; agent?: string }[] } = {},
): Promise<ChildHost> {
  const proc: ChildProcess = spawn(process.execPath, [bundle, JSON.stringify({ dataDir: f.dataDir, workdir: f.workdir, ...o })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const events: SequencedEvent[] = []
  let stderr = ''
  let exited: string | undefined
  let ready: { pid: number; sessionId?: string; sessionIds: string[] } | undefined
  proc.stderr!.on('data', (d: Buffer) => (stderr += String(d)))
  const exit = new Promise<void>((resolve) =>
    proc.once('exit', (code, signal) => {
      exited = `child host exited (code ${code}, signal ${signal})\n${stderr}`
      resolve()
    }),
  )
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    const m = JSON.parse(text) as { kind: string; event?: SequencedEvent; pid?: number; sessionId?: string; sessionIds?: string[]; message?: string }
    if (m.kind === 'event') events.push(m.event!)
    else if (m.kind === 'ready') ready = { pid: m.pid!, sessionId: m.sessionId, sessionIds: m.sessionIds ?? [] }
    else if (m.kind === 'fatal') stderr += `fatal: ${m.message}\n`
  })

  const until = async (cond: () => boolean, what: string, ms = 15_000) => {
    const end = Date.now() + ms
    while (!cond()) {
      if (exited) throw new Error(`waiting for ${what}: ${exited}`)
      if (Date.now() > end) throw new Error(`waiting for ${what}: not reached in ${ms} ms. stderr:\n${stderr}`)
      await new Promise((r) => setTimeout(r, 5))
    }
  }
  await until(() => ready !== undefined, 'the child host to start', 30_000)
  return {
    pid: ready!.pid,
    sessionId: ready!.sessionId,
    sessionIds: ready!.sessionIds,
    events,
    until,
    async kill() {
      if (!exited) proc.kill('SIGKILL')
      await exit
    },
  }
}
