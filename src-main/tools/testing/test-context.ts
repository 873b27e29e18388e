import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { PermissionAsk, Todo, ToolContext, ToolDisplay } from '../tool'

/** Test support only: a real temp workspace and a ToolContext whose callbacks record calls. */
export interface TestContext extends ToolContext {
  asks: Array<{ ask: PermissionAsk; display?: ToolDisplay }>
  todos: Todo[][]
  controller: AbortController
  /** remove the temp dirs */
  cleanup(): void
}

export function makeTempDir(prefix = 'agentry-tools-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
}

export function makeContext(opts: {
  workdir?: string
  /** files to create in the workdir: { relativePath: content } (folders are made as needed) */
  files?: Record<string, string | Buffer>
  deny?: (ask: PermissionAsk) => string | null
  /** the rules' answer for a tool's own checks; default: 'deny' where `deny` denies, else 'allow' */
  checkRules?: ToolContext['checkRules']
  askUser?: ToolContext['askUser']
  planExit?: ToolContext['planExit']
} = {}): TestContext {
  const workdir = opts.workdir ?? makeTempDir()
  for (const [rel, content] of Object.entries(opts.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(workdir, rel)), { recursive: true })
    fs.writeFileSync(path.join(workdir, rel), content)
  }
  const overflowDir = makeTempDir('agentry-overflow-')
  const controller = new AbortController()
  const asks: TestContext['asks'] = []
  const todos: Todo[][] = []
  return {
    sessionId: 'ses_test',
    rootSessionId: 'ses_test',
    messageId: 'msg_test',
    toolCallId: 'call_test',
    agent: 'build',
    workdir,
    overflowDir,
    signal: controller.signal,
    controller,
    asks,
    todos,
    async authorize(given, display) {
      // Several asks (a command and the files it writes) are recorded one by one; any denial denies the call.
      let denial: string | null = null
      for (const ask of Array.isArray(given) ? given : [given]) {
        asks.push({ ask, ...(display ? { display } : {}) })
        denial ??= opts.deny?.(ask) ?? null
      }
      return denial === null ? { ok: true } : { ok: false, message: denial }
    },
    checkRules:
      opts.checkRules ??
      ((given) => ((Array.isArray(given) ? given : [given]).some((ask) => opts.deny?.(ask) != null) ? 'deny' : 'allow')),
    setTodos(list) {
      todos.push(list)
    },
    askUser: opts.askUser ?? (async () => Promise.reject(new Error('No user is attached (headless run).'))),
    planExit: opts.planExit ?? (async () => ({ approved: true })),
    cleanup() {
      fs.rmSync(workdir, { recursive: true, force: true })
      fs.rmSync(overflowDir, { recursive: true, force: true })
    },
  }
}
