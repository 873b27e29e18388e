import { spawn } from 'node:child_process'
import { z } from 'zod'
import type { SandboxState } from '../../src-shared'
import { DEFAULT_SANDBOX_POLICY, prepareCommand, type PreparedCommand } from '../sandbox'
import { loadShellGrammar } from '../permissions'
import { bashReadOnly } from './bash-read-only'
import { bashWriteAsks } from './bash-writes'
import { runInContainer } from './bash-container'
import { groupAlive, signalGroup } from './process-group'
import { defineTool, ToolError, type PermissionAsk, type ToolResult } from './tool'

export const DEFAULT_BASH_TIMEOUT_MS = 120_000
export const MAX_BASH_TIMEOUT_MS = 600_000
/** Time between SIGTERM and SIGKILL for the command's process group. */
export const KILL_GRACE_MS = 2_000
/** Output kept in memory; runTool truncates what the model sees and saves the rest. */
const MAX_CAPTURE_CHARS = 10 * 1024 * 1024
/** After the command ends, how long to wait for something outside its group to release the output pipes. */
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
- Where an OS sandbox exists, the command can write only inside the workspace and $TMPDIR (/tmp), and has no network unless the user allowed it.
- Background processes (&) end when the command returns; each call starts a fresh shell: cd and exported variables do not carry over; chain with && instead.
- Write command names and shell strings out literally: a command built at run time ($(…) as a command, eval "$x", bash -c "$x") always needs the user's approval.
- Prefer read_file, list_dir, glob, grep and edit_file over cat, ls, find, grep and sed: they are faster to review and need fewer approvals.
- Long output is truncated; the full text is saved and can be paged with read_file.`

type Ending = { code: number | null; signal: NodeJS.Signals | null }

/** Sessions already told that their commands run without a sandbox (said once per session). */
const toldUnconfined = new Set<string>()

function runCommand(input: z.infer<typeof BashParameters>, prepared: PreparedCommand, workdir: string, signal: AbortSignal, emit?: (t: string) => void): Promise<ToolResult> {
  const timeoutMs = input.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS
  return new Promise((resolve, reject) => {
    const stdio: ['pipe' | 'ignore', 'pipe', 'pipe'] = [prepared.watchdog ? 'pipe' : 'ignore', 'pipe', 'pipe']
    const child = spawn(prepared.file, prepared.args, {
      cwd: workdir,
      // Own process group, so a timeout or abort can take down everything the command started.
      detached: true,
      // The watchdog holds this stdin pipe: when the host dies the pipe closes and the command's group is killed.
      stdio,
      env: { ...prepared.env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' },
    })
    const pid = child.pid
    const { stdout, stderr } = child
    if (!stdout || !stderr) throw new Error('bash: spawn gave no output pipes')

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
    stdout.setEncoding('utf8').on('data', onData)
    stderr.setEncoding('utf8').on('data', onData)

    let killReason: 'timeout' | 'abort' | null = null
    let killError: string | null = null
    let sigkillSent = false
    let ending: Ending | null = null
    let closed = false
    let pipesAbandoned = false
    let settled = false
    const timers: NodeJS.Timeout[] = []

    const stopAll = () => {
      timers.forEach(clearTimeout)
      clearTimeout(timeoutTimer)
      signal.removeEventListener('abort', onAbort)
      child.stdin?.destroy()
    }
    const finish = () => {
      if (settled) return
      settled = true
      stopAll()
      resolve(describe())
    }
    // Done once the command has exited and its output is closed, and, after a kill, the group is gone.
    const maybeFinish = () => {
      if (!ending || !closed) return
      if (killReason && pid !== undefined && !sigkillSent && groupAlive(pid)) return
      finish()
    }
    const sendToGroup = (sig: NodeJS.Signals) => {
      if (pid === undefined) return
      try {
        signalGroup(pid, sig)
      } catch (e) {
        killError = e instanceof Error ? e.message : String(e)
      }
    }
    const kill = (reason: 'timeout' | 'abort') => {
      if (killReason || pid === undefined || settled) return
      killReason = reason
      sendToGroup('SIGTERM')
      timers.push(
        setTimeout(() => {
          sigkillSent = true
          sendToGroup('SIGKILL')
          maybeFinish()
          // Something outside the group (e.g. a setsid'd grandchild) may still hold the pipes.
          timers.push(setTimeout(abandonPipes, 1_000))
        }, KILL_GRACE_MS),
      )
    }
    const abandonPipes = () => {
      if (closed) return
      pipesAbandoned = true
      stdout.destroy()
      stderr.destroy()
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
      if (pipesAbandoned && !killReason) parts.push('(a process outside the command still holds the output open; its later output is not captured)')
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
      stopAll()
      reject(new ToolError(`Could not start ${prepared.file} in ${workdir}: ${e.message}`))
    })
    child.on('exit', (code, sig) => {
      ending = { code, signal: sig }
      // The command is over: whatever it left running in its group (background jobs, the watchdog) ends with it.
      if (!killReason) {
        sendToGroup('SIGKILL')
        timers.push(setTimeout(abandonPipes, PIPE_DRAIN_MS))
      }
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

/** A line said once per session when commands run unconfined, so the person and the model know. */
function unconfinedNote(state: SandboxState): string {
  return state.mode === 'off'
    ? 'Note: the bash sandbox is turned off in Settings; commands run with your full permissions and only the permission rules guard them.'
    : `Note: no OS sandbox on this machine (${state.reason ?? 'unavailable'}); only the permission rules guard bash commands.`
}

export const bashTool = defineTool({
  name: 'bash',
  description,
  parameters: BashParameters,
  // The line is judged by parsing it (see permissions/shell): the grammar loads on the first bash call.
  prepare: loadShellGrammar,
  permission(input, ctx): PermissionAsk[] {
    // The line itself (parsed into commands by the permission module), plus each file it writes, judged as write_file.
    // A read-only line says so, with the files it reads: it may run without asking (issue 28).
    const readOnly = bashReadOnly(input.command, ctx.workdir)
    return [{ kind: 'command', subjects: [input.command], ...(readOnly ? { readOnly } : {}) }, ...bashWriteAsks(input.command, ctx.workdir)]
  },
  display(input) {
    return { summary: input.description ? `${input.description}: ${input.command}` : input.command }
  },
  async execute(input, ctx) {
    const policy = ctx.sandbox ?? DEFAULT_SANDBOX_POLICY
    // A child with its own container runs its commands there, never on the host (issue 29).
    if (ctx.container) {
      const timeoutMs = input.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS
      return runInContainer(ctx.container, input.command, { cwd: ctx.workdir, timeoutMs, signal: ctx.signal, maxChars: MAX_CAPTURE_CHARS, network: policy.network, onData: ctx.emitProgress?.bind(ctx) })
    }
    let prepared: PreparedCommand
    try {
      prepared = await prepareCommand(input.command, { workdir: ctx.workdir, policy, env: process.env })
    } catch (e) {
      throw new ToolError(`Could not prepare the sandbox for this command: ${e instanceof Error ? e.message : String(e)}`)
    }
    try {
      const result = await runCommand(input, prepared, ctx.workdir, ctx.signal, ctx.emitProgress?.bind(ctx))
      const confined = prepared.state.mode === 'bwrap' || prepared.state.mode === 'seatbelt'
      const note = !confined && !toldUnconfined.has(ctx.rootSessionId) ? unconfinedNote(prepared.state) : undefined
      if (note) {
        // Only a bound on memory for a long-running daemon: forgetting means saying it once more.
        if (toldUnconfined.size >= 10_000) toldUnconfined.clear()
        toldUnconfined.add(ctx.rootSessionId)
      }
      return { output: note ? `${result.output}\n${note}` : result.output, metadata: { ...result.metadata, sandbox: prepared.state } }
    } finally {
      prepared.cleanup()
    }
  },
})
