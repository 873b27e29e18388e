import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { REPO_ROOT } from './build-renderer'

export type RunningDaemon = { url: string; port: number; proc: ChildProcess; output: () => string; stop(signal?: NodeJS.Signals): Promise<void> }

/**
 * Starts the real daemon (`node bin/agentry.js serve`) as a user would, and reads the URL it prints.
 * `home` is the data dir (AGENTRY_HOME); `workdir` the workspace it opens by default.
 */
export async function startDaemon(o: { home: string; workdir: string; port?: number; token?: string; env?: Record<string, string> }): Promise<RunningDaemon> {
  // --debug: every host output is checked against the bridge contract, as in the transport tests. `--token=…` in one
  // argument: a random token may start with '-', which the parser would take for an option.
  const args = [path.join(REPO_ROOT, 'bin', 'agentry.js'), 'serve', '--debug', '--port', String(o.port ?? 0), ...(o.token ? [`--token=${o.token}`] : [])]
  const proc = spawn(process.execPath, args, {
    cwd: o.workdir,
    env: { ...process.env, AGENTRY_HOME: o.home, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()))
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agentry serve printed no URL within 20 s. Output:\n${out}`)), 20_000)
    const check = () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    }
    proc.stdout?.on('data', check)
    proc.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`agentry serve exited with code ${code} before printing its URL. Output:\n${out}`))
    })
  })
  const port = Number(new URL(url).port)
  return {
    url,
    port,
    proc,
    output: () => out,
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve()
        proc.once('exit', () => resolve())
        proc.kill(signal)
      }),
  }
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `agentry-e2e-${prefix}-`))
}

/** Writes files given as { relativePath: content } under root. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel)
    fs.mkdirSync(path.dirname(p), { recursive: true })
    fs.writeFileSync(p, content)
  }
}
