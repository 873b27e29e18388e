import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** Past this size the log is moved to `host.log.1` (one old file kept), so a long-running daemon cannot fill the disk. */
const MAX_BYTES = 5 * 1024 * 1024
const MAX_MESSAGE = 400

/**
 * The host's own log, `{dataDir}/logs/host.log` (0600): unexpected failures with an id that the person saw in the
 * answer or the session, and writes the store dropped. Never message content, tool output, tokens or keys: a fault is
 * written as the error's name, code, a clipped message with anything key-like masked, and its stack frames.
 */
export interface HostLog {
  readonly file: string
  /** Records an unexpected failure in `where` (a bridge call, a run, a timer); returns its id, e.g. `E-1a2b3c4d`. */
  fault(where: string, err: unknown): string
  /** One line of diagnostics (already free of content). */
  note(line: string): void
  /** How many faults this host recorded (tests and the soak bench). */
  readonly faults: number
}

export function openHostLog(dataDir: string, o: { echo?: (line: string) => void } = {}): HostLog {
  const dir = path.join(dataDir, 'logs')
  const file = path.join(dir, 'host.log')
  const echo = o.echo ?? ((line: string) => console.error(line))
  let faults = 0
  let broken = false
  const write = (text: string): void => {
    if (broken) return
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
      const size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0
      if (size > MAX_BYTES) fs.renameSync(file, `${file}.1`)
      fs.appendFileSync(file, text, { mode: 0o600 })
    } catch (err) {
      // A read-only data dir must not turn every fault into a second one: say so once, keep the stderr line.
      broken = true
      echo(`[agentry] cannot write ${file} (${(err as Error).message}); faults go to stderr only`)
    }
  }
  const stamp = () => new Date().toISOString()
  return {
    file,
    get faults() {
      return faults
    },
    fault(where, err) {
      faults++
      const id = `E-${crypto.randomBytes(4).toString('hex')}`
      const { head, frames } = describeFault(err)
      write(`${stamp()} ${id} fault in ${where}: ${head}\n${frames.map((f) => `    ${f}\n`).join('')}`)
      echo(`[agentry] internal error ${id} in ${where}: ${head} (details: ${file})`)
      return id
    },
    note(line) {
      write(`${stamp()} ${line}\n`)
      echo(line)
    },
  }
}

/** The error's name, code and a clipped, masked message; its stack frames (file positions only, never values). */
export function describeFault(err: unknown): { head: string; frames: string[] } {
  if (!(err instanceof Error)) return { head: `non-error value of type ${typeof err}`, frames: [] }
  const code = (err as { code?: unknown }).code
  const message = maskSecrets(err.message.split('\n')[0]).slice(0, MAX_MESSAGE)
  const frames = (err.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .map((l) => l.trim())
    .slice(0, 12)
  return { head: `${err.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${message}`, frames }
}

/** Anything shaped like a credential is masked (API keys, bearer tokens, `key=…`/`token=…` pairs). */
export function maskSecrets(text: string): string {
  return text
    .replace(/\b(sk|pk|rk|xai|gsk)-[A-Za-z0-9_-]{8,}/g, '$1-***')
    .replace(/\bBearer\s+\S+/gi, 'Bearer ***')
    .replace(/\b(api[_-]?key|token|secret|password|authorization)(["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi, '$1$2***')
}
