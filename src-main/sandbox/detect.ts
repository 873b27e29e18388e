import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { errnoCode, readTextIfPresent } from '../files'

/** Which OS sandbox bash commands can run in on this machine. */
export type SandboxSupport =
  | { kind: 'bwrap'; path: string }
  | { kind: 'seatbelt'; path: string }
  | { kind: 'none'; reason: string }

const SANDBOX_EXEC = '/usr/bin/sandbox-exec'
/** In the data dir: the last successful bubblewrap probe (see probeStamp). */
export const SANDBOX_PROBE_FILE = 'sandbox-probe.json'
const PROBE_TIMEOUT_MS = 5_000

/** By PATH: the answer only changes with where bwrap would be found. */
const detected = new Map<string, Promise<SandboxSupport>>()

/**
 * Looks once per process: Linux → bubblewrap on PATH, proven by running `true` with the same isolation flags bash
 * commands get (a kernel without unprivileged user namespaces, or a bwrap too old for --disable-userns, fails here
 * rather than on every command); macOS → sandbox-exec; elsewhere none. Never throws: a failure is the reason.
 */
export function detectSandbox(env: NodeJS.ProcessEnv = process.env, o: { memoFile?: string } = {}): Promise<SandboxSupport> {
  const key = env.PATH ?? ''
  let found = detected.get(key)
  if (!found) {
    found = detect(env, o.memoFile)
    detected.set(key, found)
  }
  return found
}

async function detect(env: NodeJS.ProcessEnv, memoFile: string | undefined): Promise<SandboxSupport> {
  if (process.platform === 'darwin') {
    return fs.existsSync(SANDBOX_EXEC) ? { kind: 'seatbelt', path: SANDBOX_EXEC } : { kind: 'none', reason: `${SANDBOX_EXEC} is missing` }
  }
  if (process.platform !== 'linux') return { kind: 'none', reason: `no OS sandbox is available on ${process.platform}` }
  const bwrap = findOnPath('bwrap', env.PATH ?? '')
  if (!bwrap) return { kind: 'none', reason: 'bubblewrap (bwrap) is not installed; install the "bubblewrap" package' }
  const stamp = memoFile ? probeStamp(bwrap) : undefined
  if (stamp && memoFile && readTextIfPresent(memoFile)?.trim() === stamp) return { kind: 'bwrap', path: bwrap }
  const probe = await run(bwrap, [...isolationArgs(), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', 'true'])
  if (probe.code !== 0) return { kind: 'none', reason: `bubblewrap cannot create a sandbox here: ${probe.stderr.trim() || `exit ${probe.code}`}` }
  if (stamp && memoFile) writeMemo(memoFile, stamp)
  return { kind: 'bwrap', path: bwrap }
}

/**
 * Namespaces and privileges every bwrap sandbox uses: a user namespace (so even a root caller holds no
 * capabilities inside and cannot remount anything writable), no nested user namespaces (which could undo the
 * read-only binds), its own pid namespace (everything inside dies with it), and death with the host.
 */
export function isolationArgs(): string[] {
  const uid = process.getuid?.() ?? 0
  const gid = process.getgid?.() ?? 0
  return ['--unshare-user', '--uid', String(uid), '--gid', String(gid), '--disable-userns', '--cap-drop', 'ALL', '--unshare-pid', '--unshare-ipc', '--die-with-parent']
}

function findOnPath(name: string, pathVar: string): string | null {
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue
    const candidate = path.join(dir, name)
    try {
      fs.accessSync(candidate, fs.constants.X_OK)
      return candidate
    } catch (err) {
      // Not in this PATH entry (or not executable): keep looking.
      if (!(err instanceof Error)) throw err
    }
  }
  return null
}

function run(file: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', (e) => resolve({ code: -1, stderr: e.message }))
    child.on('close', (code) => resolve({ code, stderr }))
  })
}

/**
 * A successful probe is remembered until the machine restarts or bwrap changes: each one-shot command would otherwise
 * fork a probe (≈ 25 ms of its CPU). Only success is remembered — a failure (no user namespaces) is probed again, so
 * enabling them takes effect at once; a sandbox that stops working later fails the command that needs it, loudly.
 * Undefined where there is no boot id (then every process probes).
 */
function probeStamp(bwrap: string): string | undefined {
  const bootId = readTextIfPresent('/proc/sys/kernel/random/boot_id')?.trim()
  if (!bootId) return undefined
  const st = fs.statSync(bwrap)
  return JSON.stringify({ bootId, bwrap, size: st.size, mtimeMs: st.mtimeMs, uid: process.getuid?.() ?? null })
}

function writeMemo(file: string, stamp: string): void {
  try {
    fs.writeFileSync(file, `${stamp}\n`, { mode: 0o600 })
  } catch (err) {
    // A data dir we cannot write to only means the next command probes again; the sandbox itself works.
    if (!errnoCode(err)) throw err
  }
}
