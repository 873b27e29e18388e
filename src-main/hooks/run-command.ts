import { spawn } from 'node:child_process'
import { pipeWatchdogCommand, prepareCommand, type SandboxPolicy } from '../sandbox'

export interface CommandEnding {
  /** null when it did not exit by itself (timeout, abort, could not start) */
  code: number | null
  stdout: string
  stderr: string
  timedOut: boolean
  /** why it could not run at all */
  error?: string
}

const MAX_CAPTURE = 64 * 1024

/**
 * Runs one hook command as bash runs a command (`bash -c` in bubblewrap / Seatbelt with the run's sandbox policy,
 * the workspace as cwd), with the event's JSON on stdin and `CLAUDE_PROJECT_DIR` set as Claude Code sets it. On a
 * timeout or abort the whole process group is killed. Never throws.
 */
export async function runHookCommand(command: string, stdin: string, o: { workdir: string; policy: SandboxPolicy; timeoutMs: number; signal?: AbortSignal }): Promise<CommandEnding> {
  const env = { ...process.env, CLAUDE_PROJECT_DIR: o.workdir }
  let prepared
  try {
    prepared = await prepareCommand(command, { workdir: o.workdir, policy: o.policy, env })
  } catch (err) {
    return { code: null, stdout: '', stderr: '', timedOut: false, error: `could not prepare the sandbox (${(err as Error).message})` }
  }
  // Without bubblewrap the watchdog would hold stdin; the pipe variant keeps stdin for the hook's JSON (guard on fd 3).
  const { file, args } = prepared.watchdog ? pipeWatchdogCommand(prepared.args[3] ?? 'bash', prepared.args.slice(4)) : prepared
  return new Promise((resolve) => {
    let stdout = ''
    let stderr = ''
    let timedOut = false
    let settled = false
    const child = spawn(file, args, {
      cwd: o.workdir,
      detached: true,
      stdio: prepared.watchdog ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
      env: prepared.env,
    })
    const killGroup = () => {
      if (child.pid === undefined) return
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    const finish = (end: CommandEnding) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      o.signal?.removeEventListener('abort', onAbort)
      prepared.cleanup()
      resolve(end)
    }
    const onAbort = () => killGroup()
    const timer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, o.timeoutMs)
    o.signal?.addEventListener('abort', onAbort, { once: true })
    child.stdout?.setEncoding('utf8').on('data', (t: string) => (stdout = (stdout + t).slice(0, MAX_CAPTURE)))
    child.stderr?.setEncoding('utf8').on('data', (t: string) => (stderr = (stderr + t).slice(0, MAX_CAPTURE)))
    // A hook that does not read its stdin closes the pipe early: that is not an error.
    child.stdin?.on('error', () => {})
    child.stdin?.end(stdin)
    child.on('error', (err) => finish({ code: null, stdout, stderr, timedOut, error: err.message }))
    child.on('close', (code) => {
      // A timed-out hook's grandchildren may hold the pipes; the group kill above takes them down too.
      finish({ code: timedOut || o.signal?.aborted ? null : code, stdout, stderr, timedOut })
    })
  })
}
