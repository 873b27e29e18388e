import { spawn, type ChildProcess } from 'node:child_process'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { pipeWatchdogCommand } from '../sandbox'
import { groupAlive, signalGroup } from '../tools'

/** After stdin closes, how long a server gets to exit by itself before SIGTERM, then SIGKILL. */
const EXIT_GRACE_MS = 1_000

export interface ProcessExit {
  code: number | null
  signal: NodeJS.Signals | null
}

export interface ProcessTransportOptions {
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string
  onStderr(chunk: Buffer): void
}

/**
 * The SDK's stdio framing (ReadBuffer, serializeMessage) over a server process that cannot outlive the host: it runs
 * in a process group of its own, with a watchdog holding a pipe from the host (see sandbox/watchdog.ts), so everything
 * it starts dies with it — when it is stopped, when it exits, and when the host dies, even by `kill -9`. The SDK's own
 * StdioClientTransport spawns the server in the host's group with no such guard. Windows has neither `sh` nor process
 * groups: there the server is spawned directly.
 */
export class ProcessTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private child?: ChildProcess
  private readonly buffer = new ReadBuffer()
  private closed?: Promise<void>
  /** how the process ended, once it has */
  exit: ProcessExit | null = null

  constructor(private readonly o: ProcessTransportOptions) {}

  get pid(): number | null {
    return this.child?.pid ?? null
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessTransport already started')
    const posix = process.platform !== 'win32'
    const { file, args } = posix ? pipeWatchdogCommand(this.o.command, this.o.args) : { file: this.o.command, args: this.o.args }
    const child = spawn(file, args, {
      cwd: this.o.cwd,
      env: this.o.env,
      stdio: posix ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
      // Its own process group (POSIX): stop and the watchdog take down everything the server started.
      detached: posix,
      windowsHide: true,
    })
    this.child = child
    let exited!: () => void
    this.closed = new Promise((resolve) => (exited = resolve))
    let spawned = false
    return new Promise((resolve, reject) => {
      child.once('spawn', () => {
        spawned = true
        resolve()
      })
      child.once('error', (err) => {
        // Not started at all (a cwd that does not exist): there will be no exit to wait for.
        if (!spawned) exited()
        reject(err)
        this.onerror?.(err)
      })
      child.once('exit', (code, signal) => {
        this.exit = { code, signal }
        // The server is gone: whatever it left in its group (and the watchdog, which holds fd 3 open) goes too.
        if (posix && child.pid !== undefined) signalGroup(child.pid, 'SIGKILL')
      })
      child.once('close', () => {
        this.buffer.clear()
        exited()
        this.onclose?.()
      })
      child.stdout?.on('data', (chunk: Buffer) => {
        this.buffer.append(chunk)
        this.drain()
      })
      child.stderr?.on('data', (chunk: Buffer) => this.o.onStderr(chunk))
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.on('error', (err) => this.onerror?.(err))
    })
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null
      try {
        message = this.buffer.readMessage()
      } catch (err) {
        // A line that is not JSON-RPC (a server printing to stdout): reported, the stream goes on.
        this.onerror?.(err instanceof Error ? err : new Error(String(err)))
        continue
      }
      if (message === null) return
      this.onmessage?.(message)
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (!stdin || stdin.destroyed || this.exit) return Promise.reject(new Error('the server process is not running'))
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve()))
    })
  }

  /** Closes stdin (the MCP way to ask a stdio server to exit), then SIGTERM, then SIGKILL to its group. */
  async close(): Promise<void> {
    const child = this.child
    if (!child || !this.closed) return
    if (!this.exit) {
      child.stdin?.end()
      const signalAll = (sig: NodeJS.Signals) => {
        if (child.pid === undefined || this.exit) return
        if (process.platform === 'win32') child.kill(sig)
        else signalGroup(child.pid, sig)
      }
      const term = setTimeout(() => signalAll('SIGTERM'), EXIT_GRACE_MS)
      const kill = setTimeout(() => signalAll('SIGKILL'), 2 * EXIT_GRACE_MS)
      await this.closed
      clearTimeout(term)
      clearTimeout(kill)
    }
    await this.closed
    // The group was sent SIGKILL when the server exited; its last members may still be on their way out.
    if (process.platform !== 'win32' && child.pid !== undefined) {
      const until = Date.now() + 2 * EXIT_GRACE_MS
      while (groupAlive(child.pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 10))
    }
  }
}
