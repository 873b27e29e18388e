import { spawn } from 'node:child_process'
import { z } from 'zod'
import { groupAlive, signalGroup } from './process-group'
import { defineTool, ToolError, type ToolResult } from './tool'

export const DEFAULT_BASH_TIMEOUT_MS = 120_000
export const MAX_BASH_TIMEOUT_MS = 600_000
/** Time between SIGTERM and SIGKILL for the command's process group. */
export const KILL_GRACE_MS = 2_000
/** Output kept in memory; runTool truncates what the model sees and saves the rest. */
const MAX_CAPTURE_CHARS = 10 * 1024 * 1024
/** After bash exits, how long to wait for background processes to release its output pipes. */
const PIPE_DRAIN_MS = 500

export const BashParameters = z.object({
  command: z.string().min(1).describe('The command line, run with bash -c in the workspace root.'),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .max(MAX_BASH_TIMEOUT_MS)
    .optional()
    .describe(`Kill the command after this many milliseconds. Default ${DEFAULT_BASH_TIMEOUT_MS}, max ${MAX_BASH_TIMEOUT_MS}.`),
  description: z.string().optional().describe('A few words saying what the command does, shown to the user (e.g. "Run unit tests").'),
})

const description = `Run a shell command with bash -c in the workspace root and return its output (stdout and stderr interleaved) and exit code.
- No stdin and no terminal: interactive commands get end-of-input. Pagers are disabled.
- Default timeout ${DEFAULT_BASH_TIMEOUT_MS / 1000} s (timeoutMs up to ${MAX_BASH_TIMEOUT_MS / 1000} s); on timeout the whole process group is killed.
- Prefer read_file, list_dir, glob, grep and edit_file over cat, ls, find, grep and sed: they are faster to review and need fewer approvals.
- Each call starts a fresh shell: cd and exported variables do not carry over; chain with && instead.
- Long output is truncated; the full text is saved and can be paged with read_file.`

type Ending = { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null }

function runCommand(input: z.infer<typeof BashParameters>, workdir: string, signal: AbortSignal, emit?: (t: string) => void): Promise<ToolResult> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', input.command], {
      cwd: workdir,
      // Own process group, so a timeout or abort can take down everything the command started.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
    })
    const pid = child.pid

    let output = ''
    let dropped = 0
    const onData = (text: string) => {
      emit?.(text)
      const room = MAX_CAPTURE_CHARS - output.length
      if (room >= text.length) output += text
      else {
        output += text.slice(0, Math.max(0, room))
        dropped += text.length - Math.max(0, room)
      }
    }
    child.stdout.setEncoding('utf8').on('data', onData)
    child.stderr.setEncoding('utf8').on('data', onData)

    let killReason: 'timeout' | 'abort' | null = null
    let killError: string | null = null
    let sigkillSent = false
    let ending: Ending | null = null
    let closed = false
    let pipesAbandoned = false
    let settled = false
    const timers: NodeJS.Timeout[] = []

    const finish = () => {
      if (settled) return
      settled = true
      timers.forEach(clearTimeout)
      clearTimeout(timeoutTimer)
      signal.removeEventListener('abort', onAbort)
      resolve(describe())
    }
    // Done once bash has exited and its output is closed, and, after a kill, the group is gone.
    const maybeFinish = () => {
      if (!ending || !closed) return
      if (killReason && pid !== undefined && !sigkillSent && groupAlive(pid)) return
      finish()
    }
    const kill = (reason: 'timeout' | 'abort') => {
      if (killReason || pid === undefined || settled) return
      killReason = reason
      try {
        signalGroup(pid, 'SIGTERM')
      } catch (e) {
        killError = e instanceof Error ? e.message : String(e)
      }
      timers.push(
        setTimeout(() => {
          sigkillSent = true
          try {
            signalGroup(pid, 'SIGKILL')
          } catch (e) {
            killError = e instanceof Error ? e.message : String(e)
          }
          maybeFinish()
          // Something outside the group (e.g. a setsid'd grandchild) may still hold the pipes.
          timers.push(setTimeout(abandonPipes, 1_000))
        }, KILL_GRACE_MS),
      )
    }
    const abandonPipes = () => {
      if (closed) return
      pipesAbandoned = true
      child.stdout.destroy()
      child.stderr.destroy()
      closed = true
      maybeFinish()
    }
    const onAbort = () => kill('abort')
    const timeoutTimer = setTimeout(() => kill('timeout'), timeoutMs)

    const describe = (): ToolResult => {
      const parts = [output === '' ? '(no output)' : output.replace(/\n$/, '')]
      if (dropped) parts.push(`[${dropped} more chars of output were discarded]`)
      if (killReason === 'timeout') {
        parts.push(`Command timed out after ${timeoutMs} ms; its process group was killed (SIGTERM, then SIGKILL after ${KILL_GRACE_MS / 1000} s). Raise timeoutMs (max ${MAX_BASH_TIMEOUT_MS}) or make the command finish sooner.`)
      } else if (killReason === 'abort') {
        parts.push('Command aborted by the user; its process group was killed.')
      }
      if (killError) parts.push(`Killing the process group failed: ${killError}`)
      if (pipesAbandoned && !killReason) parts.push('(background processes still hold the output open; their later output is not captured)')
      if (ending?.code !== null && ending?.code !== undefined) parts.push(`Exit code: ${ending.code}`)
      else if (ending?.signal) parts.push(`Terminated by signal ${ending.signal}`)
      return {
        output: parts.join('\n'),
        metadata: { exitCode: ending?.code ?? null, signal: ending?.signal ?? null, timedOut: killReason === 'timeout', aborted: killReason === 'abort' },
      }
    }

    child.on('error', (e) => {
      if (settled) return
      settled = true
      timers.forEach(clearTimeout)
      clearTimeout(timeoutTimer)
      signal.removeEventListener('abort', onAbort)
      reject(new ToolError(`Could not start bash in ${workdir}: ${e.message}`))
    })
    child.on('exit', (code, sig) => {
      ending = { kind: 'exit', code, signal: sig }
      if (!killReason) timers.push(setTimeout(abandonPipes, PIPE_DRAIN_MS))
      maybeFinish()
    })
    child.on('close', () => {
      closed = true
      maybeFinish()
    })
    if (signal.aborted) kill('abort')
    else signal.addEventListener('abort', onAbort, { once: true })
  })
}

export const bashTool = defineTool({
  name: 'bash',
  description,
  parameters: BashParameters,
  permission(input) {
    return { kind: 'command', subjects: [input.command] }
  },
  display(input) {
    return { summary: input.description ? `${input.description}: ${input.command}` : input.command }
  },
  execute(input, ctx) {
    return runCommand(input, ctx.workdir, ctx.signal, ctx.emitProgress?.bind(ctx))
  },
})
