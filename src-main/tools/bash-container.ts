import type { ContainerHandle } from '../containers'
import { ToolError, type ToolResult } from './tool'

/**
 * A bash command of a child with `isolation: container`, run inside its container (issue 29): the same result shape
 * and words as on the host (output, the kept/discarded note, timeout and abort, exit code), and the container named
 * in the metadata the tool card shows.
 */
export async function runInContainer(
  container: ContainerHandle,
  command: string,
  o: { cwd: string; timeoutMs: number; signal: AbortSignal; maxChars: number; network: boolean; onData?: (text: string) => void },
): Promise<ToolResult> {
  let result
  try {
    result = await container.exec(command, { cwd: o.cwd, timeoutMs: o.timeoutMs, signal: o.signal, maxChars: o.maxChars, onData: o.onData, env: { PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' } })
  } catch (err) {
    throw new ToolError(`Could not run the command in container ${container.name}: ${err instanceof Error ? err.message : String(err)}`)
  }
  const parts = [result.output === '' ? '(no output)' : result.output.replace(/\n$/, '')]
  if (result.dropped) parts.push(`[${result.dropped} more chars of output were discarded]`)
  if (result.killed === 'timeout') parts.push(`Command timed out after ${o.timeoutMs} ms and was killed. Raise timeoutMs or make the command finish sooner.`)
  else if (result.killed === 'abort') parts.push('Command aborted by the user; it was killed.')
  else if (result.killed === 'oom') parts.push('Command was killed: it went over the container\'s memory limit (containers.limits.memoryMb in config.yaml).')
  if (result.exitCode !== null) parts.push(`Exit code: ${result.exitCode}`)
  return {
    output: parts.join('\n'),
    metadata: {
      exitCode: result.exitCode,
      signal: null,
      timedOut: result.killed === 'timeout',
      aborted: result.killed === 'abort',
      sandbox: { mode: 'container', network: o.network, reason: `container ${container.name}` },
    },
  }
}
