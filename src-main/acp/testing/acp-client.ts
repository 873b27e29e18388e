import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { Readable, Writable } from 'node:stream'
import {
  client,
  methods,
  ndJsonStream,
  type ClientContext,
  type ReadTextFileRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk/unstable'
import { AGENTRY_BIN, cliEnv, tempDir, writeFiles } from '../../cli/testing/cli-process'

/**
 * `agentry acp` as an editor runs it — a child process on stdio — driven by the ACP SDK's own client (not ours), for
 * tests and benches. The client is the SDK's unstable v1 entry point: the one that reads child sessions' updates. Records every `session/update`; permission and file requests go to the handlers the test sets.
 */
export interface AcpProcess {
  child: ChildProcess
  /** the SDK client's view of the agent: `request(methods.agent.session.new, …)` and so on */
  agent: ClientContext
  updates: SessionNotification[]
  /** every permission request, with how it ended */
  permissions: { request: RequestPermissionRequest; cancelled: boolean }[]
  onPermission: (r: RequestPermissionRequest, signal: AbortSignal) => Promise<RequestPermissionResponse>
  onRead?: (r: ReadTextFileRequest) => Promise<string>
  onWrite?: (r: WriteTextFileRequest) => Promise<void>
  stderr(): string
  /** resolves with the first value `probe` returns, re-checked whenever an update or a permission request arrives */
  waitFor<T>(probe: () => T | undefined, what: string, ms?: number): Promise<T>
  /** resolves when an update (in arrival order, from `from` on) satisfies `test` */
  waitForUpdate(test: (u: SessionNotification) => boolean, o?: { from?: number; ms?: number }): Promise<SessionNotification>
  /** close stdin (as an editor does when it is done) and wait for the process to exit */
  close(): Promise<number | null>
  exited: Promise<number | null>
}

export interface AcpOptions {
  home: string
  cwd: string
  env?: Record<string, string>
  args?: string[]
  /** what the client says it can do (fs, session notices) */
  fs?: { readTextFile?: boolean; writeTextFile?: boolean }
  /** the client advertises `subagents` (child sessions, ACP's Subagent Sessions) */
  subagents?: boolean
  nodeArgs?: string[]
}

export function startAcp(o: AcpOptions): AcpProcess {
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), AGENTRY_BIN, 'acp', ...(o.args ?? [])], {
    cwd: o.cwd,
    env: cliEnv(o.home, o.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stderr = ''
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const waiters = new Set<() => void>()
  // A probe may wait for a line on stderr (the takeover notice): every chunk re-runs the waiting probes.
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString()
    for (const w of [...waiters]) w()
  })

  const proc: AcpProcess = {
    child,
    agent: undefined as unknown as ClientContext,
    updates: [],
    permissions: [],
    onPermission: async () => ({ outcome: { outcome: 'cancelled' } }),
    stderr: () => stderr,
    waitFor(probe, what, ms = 60_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const hit = probe()
          if (hit === undefined) return
          waiters.delete(check)
          clearTimeout(timer)
          resolve(hit)
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`waited ${ms} ms for ${what}; stderr:\n${stderr}`))
        }, ms)
        waiters.add(check)
        check()
      })
    },
    waitForUpdate(test, w = {}) {
      return proc.waitFor(() => proc.updates.slice(w.from ?? 0).find(test), 'an update', w.ms)
    },
    async close() {
      child.stdin?.end()
      return exited
    },
    exited,
  }

  const app = client({ name: 'agentry-test' })
    .onNotification(methods.client.session.update, ({ params }) => {
      proc.updates.push(params)
      for (const w of [...waiters]) w()
    })
    .onRequest(methods.client.session.requestPermission, async ({ params, signal }) => {
      const entry = { request: params, cancelled: false }
      proc.permissions.push(entry)
      for (const w of [...waiters]) w()
      const cancelled = new Promise<RequestPermissionResponse>((resolve) =>
        signal.addEventListener('abort', () => {
          entry.cancelled = true
          resolve({ outcome: { outcome: 'cancelled' } })
        }),
      )
      return Promise.race([proc.onPermission(params, signal), cancelled])
    })
    .onRequest(methods.client.fs.readTextFile, async ({ params }) => {
      if (!proc.onRead) throw new Error('this client reads no files')
      return { content: await proc.onRead(params) }
    })
    .onRequest(methods.client.fs.writeTextFile, async ({ params }) => {
      if (!proc.onWrite) throw new Error('this client writes no files')
      await proc.onWrite(params)
      return {}
    })
  const stream = ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>)
  proc.agent = app.connect(stream).agent
  return proc
}

/** `initialize` as an editor sends it, with the file capabilities (and child sessions) the test wants. */
export function initialize(p: AcpProcess, fs: AcpOptions['fs'] = {}, subagents = false) {
  return p.agent.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: Boolean(fs.readTextFile), writeTextFile: Boolean(fs.writeTextFile) }, ...(subagents ? { subagents: {} } : {}) },
    clientInfo: { name: 'agentry-test', version: '1.0.0' },
  })
}

/** A data dir with the scripted model and a workspace, for one `agentry acp` scenario; `remove()` deletes both. */
export function acpScene(script: Record<string, unknown>, files: Record<string, string> = {}, prefix = 'acp') {
  const home = tempDir(`${prefix}-home`)
  const work = tempDir(`${prefix}-work`)
  writeFiles(home, { 'script.yaml': script, 'config.yaml': 'model: script/x\n' })
  writeFiles(work, files)
  const env = { AGENTRY_SCRIPT: path.join(home, 'script.yaml') }
  const started: AcpProcess[] = []
  return {
    home,
    work,
    env,
    start(o: Partial<AcpOptions> = {}) {
      const p = startAcp({ home, cwd: work, env, ...o })
      started.push(p)
      return p
    },
    /** a started process with an initialized connection and a new session in the workspace */
    async open(o: Partial<AcpOptions> = {}) {
      const p = this.start(o)
      await initialize(p, o.fs, o.subagents)
      const session = await p.agent.request(methods.agent.session.new, { cwd: work, mcpServers: [] })
      return { p, session, sessionId: session.sessionId }
    },
    async remove() {
      for (const p of started) if (p.child.exitCode === null) p.child.kill()
      await Promise.all(started.map((p) => p.exited))
      fs.rmSync(home, { recursive: true, force: true })
      fs.rmSync(work, { recursive: true, force: true })
    },
  }
}

/** The text of a prompt, as one block. */
export function say(p: AcpProcess, sessionId: string, text: string) {
  return p.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text }] })
}
