/**
 * The shell scripts the Docker runner executes inside a child's container (POSIX sh: any image with sh runs them).
 *
 * The Docker Engine API has no "kill this exec". So every command runs under WRAP: with bash, as a job of its own
 * (`set -m`: its own process group), whose id goes to a pid file; when the command ends, whatever it left running in
 * its group is killed too (as the bubblewrap sandbox does on the host: a server meant to outlive its command is started
 * with `setsid` and its output redirected). To stop a command early (timeout, abort) a second exec runs KILL with that
 * file: it stops the process group and every descendant found through /proc (a fork bomb cannot outrun a stopped
 * tree, and `kill` on a group is atomic with respect to fork), then kills them. KILL forks nothing (builtins only), so
 * it runs even when the pids limit is reached. Without bash the command is `exec`'d in sh as the exec's own process,
 * which the engine (runc) made a session and group leader; only its leftovers after a normal end are not killed then.
 */

/** The container's long-running first process: waits forever, reaps orphans (every `wait` reaps), ends on TERM. */
export const INIT_SCRIPT = "trap 'exit 0' TERM INT; while :; do sleep 86400 & wait $!; done"

/** `sh -c WRAP agentry <pidfile> <command>`: bash when the image has it (a builtin lookup, no round trip), else sh. */
export const WRAP_SCRIPT = [
  'if command -v bash >/dev/null 2>&1; then',
  `  exec bash -c 'set -m; bash -c "$2" & c=$!; set +m; exec 2>/dev/null; printf "%s\\n" "$c" > "$1" 2>/dev/null; wait "$c"; rc=$?; kill -KILL -"$c" 2>/dev/null; rm -f "$1"; exit $rc' agentry "$1" "$2"`,
  'fi',
  'printf "%s\\n" "$$" > "$1" 2>/dev/null',
  'exec sh -c "$2"',
].join('\n')

/** `sh -c KILL agentry <pidfile> <signal>`: the wrapped command's group and descendants (builtins only: no fork). */
export const KILL_SCRIPT = [
  'read -r p < "$1" 2>/dev/null || exit 3',
  '[ -n "$p" ] || exit 3',
  'kill -STOP -"$p" 2>/dev/null',
  'all=$p; new=$p',
  'while [ -n "$new" ]; do',
  '  next=',
  '  for st in /proc/[0-9]*/stat; do',
  '    read -r l < "$st" 2>/dev/null || continue',
  '    r=${l##*) }',
  '    pp=${r#* }; pp=${pp%% *}',
  '    for q in $new; do if [ "$pp" = "$q" ]; then c=${st#/proc/}; next="$next ${c%/stat}"; fi; done',
  '  done',
  '  all="$all $next"; new=$next',
  'done',
  'kill -STOP $all 2>/dev/null',
  'kill -"$2" -"$p" 2>/dev/null',
  'kill -"$2" $all 2>/dev/null',
  'kill -CONT -"$p" $all 2>/dev/null',
  'echo killed',
].join('\n')

/** Prints the container cgroup's count of OOM kills (cgroup v2 memory.events, v1 memory.oom_control). */
export const OOM_SCRIPT = 'cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null; true'

/** `oom_kill N` from OOM_SCRIPT's output (-1 when the kernel does not say). */
export function oomKills(text: string): number {
  const m = /^oom_kill (\d+)$/m.exec(text)
  return m ? Number(m[1]) : -1
}
