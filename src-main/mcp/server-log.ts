import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** A log over this size is moved to `.1` (replacing the previous one) when the server next starts. */
const MAX_LOG_BYTES = 2 * 1024 * 1024
const TAIL_LINES = 20

/**
 * A server's stderr: appended to `{dataDir}/logs/mcp/<server>-<workspace hash>.log` (owner-only), and its last lines
 * kept in memory to show with a start error or a crash.
 */
export class ServerLog {
  readonly file: string
  private lines: string[] = []
  private partial = ''
  private fd: number | null = null

  constructor(dataDir: string, server: string, workdir: string) {
    const hash = crypto.createHash('sha256').update(workdir).digest('hex').slice(0, 8)
    this.file = path.join(dataDir, 'logs', 'mcp', `${server}-${hash}.log`)
  }

  /** A new process: its lines start a new section (and only its lines are the tail). */
  open(header: string): void {
    this.close()
    this.lines = []
    this.partial = ''
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 })
    try {
      if (fs.statSync(this.file).size > MAX_LOG_BYTES) fs.renameSync(this.file, `${this.file}.1`)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
    }
    this.fd = fs.openSync(this.file, 'a', 0o600)
    fs.writeSync(this.fd, `--- ${new Date().toISOString()} ${header}\n`)
  }

  /** A line of Agentry's own (a client-side error) in the file, kept out of the server's stderr tail. */
  note(text: string): void {
    if (this.fd !== null) fs.writeSync(this.fd, `[agentry] ${text}\n`)
  }

  write(chunk: Buffer): void {
    if (this.fd !== null) fs.writeSync(this.fd, chunk)
    const text = this.partial + chunk.toString('utf8')
    const parts = text.split('\n')
    this.partial = parts.pop() ?? ''
    this.lines.push(...parts.filter((l) => l.trim() !== ''))
    if (this.lines.length > TAIL_LINES) this.lines = this.lines.slice(-TAIL_LINES)
  }

  /** The last lines the current (or last) process wrote to stderr. */
  tail(): string[] {
    return this.partial.trim() ? [...this.lines, this.partial].slice(-TAIL_LINES) : [...this.lines]
  }

  /** `\nLast stderr lines (file):\n  …` for error messages; '' when the server wrote nothing. */
  tailText(): string {
    const lines = this.tail()
    if (lines.length === 0) return ''
    return `\nLast stderr lines (${this.file}):\n${lines.map((l) => `  ${l.length > 300 ? `${l.slice(0, 300)}…` : l}`).join('\n')}`
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd)
    this.fd = null
  }
}
