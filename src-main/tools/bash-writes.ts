import path from 'node:path'
import { analyzeShell } from '../permissions'
import type { PermissionAsk } from './tool'
import { pathAsk, resolveWorkspacePath } from './workspace-path'

/** Writing to these is not writing a file. */
const STREAMS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero', '/dev/fd/1', '/dev/fd/2', '/proc/self/fd/1', '/proc/self/fd/2'])

/**
 * The files a bash line writes (`>`, `>>`, `>|`, `&>`, `tee FILE`, `dd of=FILE`, `time -o FILE`), each as a
 * `write_file` ask on its resolved path, so file rules, workspace confinement and protected paths apply to them as
 * to write_file. A relative target after a `cd` is judged in every folder the line may be in by then.
 */
export function bashWriteAsks(command: string, workdir: string): PermissionAsk[] {
  const analysis = analyzeShell(command)
  const asks = new Map<string, PermissionAsk>()
  for (const w of analysis.writes) {
    if (STREAMS.has(w.target)) continue
    const candidates = path.isAbsolute(w.target) ? [w.target] : analysis.dirs.map((d) => path.join(d, w.target))
    for (const candidate of candidates) {
      const ask: PermissionAsk = { ...pathAsk(resolveWorkspacePath(workdir, candidate), 'write'), tool: 'write_file' }
      asks.set(`${ask.outsideWorkspace ? 'o' : 'i'}\u0000${ask.subjects[0]}`, ask)
    }
  }
  return [...asks.values()]
}
