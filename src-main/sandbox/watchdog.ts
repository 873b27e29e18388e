/**
 * A parent-death guard for commands that run without bubblewrap (whose --die-with-parent does this job): `sh`
 * keeps the host's end of a pipe on fd 3 in a tiny background reader, then execs the command in the same process
 * group. When the host dies — even by `kill -9` — the kernel closes the pipe, `read` returns, and the reader kills
 * the whole group (`kill -KILL 0`), itself included. The host never writes to the pipe.
 *
 * Chosen over a Node supervisor (≈40 ms to start per command) and prctl(PR_SET_PDEATHSIG) (not reachable from
 * Node, and it only covers the direct child, not what that child starts).
 */
export const WATCHDOG_SCRIPT = 'exec 3<&0; (read -r _ <&3; kill -KILL 0) >/dev/null 2>&1 & exec "$@" </dev/null 3<&-'

/** `sh -c WATCHDOG agentry-watchdog FILE ARGS…`: spawn with stdin as a pipe the host keeps open. */
export function watchdogCommand(file: string, args: string[]): { file: string; args: string[] } {
  return { file: 'sh', args: ['-c', WATCHDOG_SCRIPT, 'agentry-watchdog', file, ...args] }
}

/**
 * The same guard for a long-running program that talks over its stdin/stdout (an MCP server): the host's end of the
 * pipe is on fd 3 instead, so stdin stays the program's. The reader closes everything else it inherited, so the
 * host still sees the program's stdout end when the program exits.
 */
export const PIPE_WATCHDOG_SCRIPT = '(read -r _ <&3; kill -KILL 0) </dev/null >/dev/null 2>&1 & exec "$@" 3<&-'

/** `sh -c PIPE_WATCHDOG agentry-watchdog FILE ARGS…`: spawn detached with stdio [pipe, pipe, pipe, pipe] (fd 3 = the guard). */
export function pipeWatchdogCommand(file: string, args: string[]): { file: string; args: string[] } {
  return { file: 'sh', args: ['-c', PIPE_WATCHDOG_SCRIPT, 'agentry-watchdog', file, ...args] }
}
