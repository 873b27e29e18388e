import { execFileSync, spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import YAML from 'yaml'

/**
 * Runs the built `agentry` command as a user would (a real process, its own AGENTRY_HOME), for the CLI's
 * end-to-end tests and the benchmarks. Not part of the CLI itself.
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
export const AGENTRY_BIN = path.join(REPO_ROOT, 'bin', 'agentry.js')

/** Bundles src-main/cli into out/cli (what `npm run build` does), so tests run the code as shipped. */
export function buildCli(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] })
}

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
  /** wall time from spawn to exit */
  ms: number
}

export interface CliOptions {
  home: string
  cwd: string
  env?: Record<string, string>
  /** extra node flags before the script, e.g. ['--cpu-prof'] */
  nodeArgs?: string[]
  /** a file given as stdin (as `agentry run … < file` would); default: none (/dev/null) */
  stdinFile?: string
}

/** Variables that would leak the developer's own setup (keys, a script, a data dir) into a run. */
const HOST_ENV = /^(AGENTRY_|ANTHROPIC_|OPENAI_|OLLAMA_|NO_COLOR$|FORCE_COLOR$)/

export function cliEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!HOST_ENV.test(k)) env[k] = v
  return { ...env, AGENTRY_HOME: home, ...extra }
}

/** `agentry ...args`; async so an in-process loopback server keeps answering while the CLI runs. */
export function agentry(args: string[], o: CliOptions): Promise<CliRun> {
  return runNode([...(o.nodeArgs ?? []), AGENTRY_BIN, ...args], { cwd: o.cwd, env: cliEnv(o.home, o.env), stdinFile: o.stdinFile })
}

/** `node ...args` as a process of its own (the CLI, `scripts/start.mjs`): its output and exit code once it ends. */
export function runNode(args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; stdinFile?: string }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const stdin = o.stdinFile ? fs.openSync(o.stdinFile, 'r') : 'ignore'
    const child = spawn(process.execPath, args, { cwd: o.cwd, env: o.env, stdio: [stdin, 'pipe', 'pipe'] }) as ChildProcessByStdio<null, Readable, Readable>
    if (typeof stdin === 'number') fs.closeSync(stdin)
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }))
  })
}

/** A long-running `agentry …` (serve, a slow run): its output so far, a way to wait for a line, and its exit. */
export interface AgentryProcess {
  child: ChildProcess
  output(): { stdout: string; stderr: string }
  /** resolves when stdout or stderr matches `re` (rejects when the process exits first or after `ms`) */
  waitFor(re: RegExp, ms?: number): Promise<void>
  exited: Promise<number | null>
}

export function spawnAgentry(args: string[], o: CliOptions): AgentryProcess {
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), AGENTRY_BIN, ...args], { cwd: o.cwd, env: cliEnv(o.home, o.env), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  const waiters = new Set<() => void>()
  const changed = () => {
    for (const w of [...waiters]) w()
  }
  child.stdout!.on('data', (d: Buffer) => ((stdout += d.toString()), changed()))
  child.stderr!.on('data', (d: Buffer) => ((stderr += d.toString()), changed()))
  const exited = new Promise<number | null>((resolve) => child.once('close', (code, signal) => (resolve(code ?? (signal ? 128 : null)), changed())))
  let gone = false
  void exited.then(() => (gone = true))
  return {
    child,
    output: () => ({ stdout, stderr }),
    exited,
    waitFor(re, ms = 15_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => done(new Error(`no output matching ${re} within ${ms} ms:\n${stdout}\n${stderr}`)), ms)
        const check = () => {
          if (re.test(stdout) || re.test(stderr)) done()
          else if (gone) done(new Error(`agentry ${args.join(' ')} exited before printing ${re}:\n${stdout}\n${stderr}`))
        }
        const done = (err?: Error) => {
          clearTimeout(timer)
          waiters.delete(check)
          if (err) reject(err)
          else resolve()
        }
        waiters.add(check)
        check()
      })
    },
  }
}

export function tempDir(prefix: string): string {
  // realpath: on macOS /tmp is a symlink, and the CLI reports resolved workspace paths.
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `agentry-${prefix}-`)))
}

/** Writes { relativePath: content } under root; objects are written as YAML. */
export function writeFiles(root: string, files: Record<string, string | Record<string, unknown>>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel)
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, typeof content === 'string' ? content : YAML.stringify(content))
  }
}
