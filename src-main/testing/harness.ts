import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import YAML from 'yaml'
import type { AgentEvent, MessageWithParts, SequencedEvent } from '../../src-shared'
import { createHost, type Host, type HostOptions } from '../host'
import { resetScriptState } from '../models'

/**
 * A real host on a temp data dir and workspace, driven by the `script` model: what every integration test,
 * benchmark and e2e run of the runtime starts from. Not a mock — the same host the CLI and daemon run.
 */
export interface Harness {
  host: Host
  dataDir: string
  workdir: string
  events: SequencedEvent[]
  /** create a session (agent default build) and send one prompt; resolves when everything settled */
  run(prompt: string, o?: { agent?: string; sessionId?: string; wait?: boolean }): Promise<RunResult>
  writeAgent(name: string, frontmatter: Record<string, unknown>, body?: string): void
  /** replace the script (the script model re-reads a changed file and starts its replies over) */
  setScript(script: Record<string, unknown>): void
  close(): Promise<void>
}

export interface RunResult {
  sessionId: string
  messages: MessageWithParts[]
  events: AgentEvent[]
  final?: Extract<AgentEvent, { type: 'turn_complete' }>
}

export interface HarnessOptions extends Partial<HostOptions> {
  script?: Record<string, unknown>
  config?: Record<string, unknown>
  files?: Record<string, string>
  permissions?: string
}

export async function createHarness(o: HarnessOptions = {}): Promise<Harness> {
  resetScriptState()
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-test-'))
  const dataDir = path.join(root, 'data')
  const workdir = path.join(root, 'work')
  fs.mkdirSync(dataDir, { recursive: true })
  fs.mkdirSync(workdir, { recursive: true })
  const scriptFile = path.join(root, 'script.yaml')
  fs.writeFileSync(scriptFile, YAML.stringify(o.script ?? { agents: { '*': [{ text: 'ok', repeat: true }] } }))
  const extra = (o.config ?? {}) as { providers?: Record<string, Record<string, unknown>> }
  const config = {
    model: 'script/test',
    ...o.config,
    providers: { ...extra.providers, script: { type: 'script', script: scriptFile, ...extra.providers?.script } },
  }
  fs.writeFileSync(path.join(dataDir, 'config.yaml'), YAML.stringify(config))
  if (o.permissions) fs.writeFileSync(path.join(dataDir, 'permissions.jsonc'), o.permissions)
  for (const [rel, text] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(workdir, rel)), { recursive: true })
    fs.writeFileSync(path.join(workdir, rel), text)
  }
  const realWorkdir = fs.realpathSync(workdir)
  const host = await createHost({ dataDir, defaultWorkspace: realWorkdir, retryDelayMs: 1, ...o })
  const events: SequencedEvent[] = []
  const unsubscribe = host.hub.subscribe({ sessionId: 'all', afterSeq: 0 }, (m) => {
    if (m.kind === 'event') events.push(m.event)
  })

  const settle = async () => {
    do {
      await host.runner.idle()
      await host.subagents.settle()
    } while (host.runner.runs().length > 0)
    host.store.flush()
  }

  return {
    host,
    dataDir,
    workdir: realWorkdir,
    events,
    async run(prompt, ro = {}) {
      const sessionId =
        ro.sessionId ?? (await host.api.calls['sessions.create']({ workspaceRoot: realWorkdir, agent: ro.agent })).session.id
      const from = events.length
      await host.api.calls['messages.prompt']({ sessionId, requestId: `req-${Math.random()}`, text: prompt })
      if (ro.wait === false) return { sessionId, messages: [], events: [] }
      await settle()
      const own = events.slice(from).filter((e) => e.stream === sessionId).map((e) => e.event)
      const final = [...own].reverse().find((e): e is Extract<AgentEvent, { type: 'turn_complete' }> => e.type === 'turn_complete' && e.sessionId === sessionId)
      return { sessionId, messages: host.store.listMessages(sessionId), events: own, final }
    },
    setScript(script) {
      fs.writeFileSync(scriptFile, YAML.stringify(script))
      // Same-millisecond rewrites keep the mtime; make the change visible to the file check.
      const later = new Date(Date.now() + 1000)
      fs.utimesSync(scriptFile, later, later)
    },
    writeAgent(name, frontmatter, body = '') {
      const dir = path.join(realWorkdir, '.agents', 'agents')
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, `${name}.md`), `---\n${YAML.stringify({ description: `${name} agent`, ...frontmatter })}---\n${body}\n`)
    },
    async close() {
      unsubscribe()
      await host.stop()
      fs.rmSync(root, { recursive: true, force: true })
    },
  }
}

/** Every event in a (possibly nested) subagent_event envelope, flattened with the child session path. */
export function flatten(events: AgentEvent[]): { path: string[]; event: AgentEvent }[] {
  const out: { path: string[]; event: AgentEvent }[] = []
  const visit = (e: AgentEvent, p: string[]) => {
    if (e.type === 'subagent_event') visit(e.event, [...p, e.sessionId])
    else out.push({ path: p, event: e })
  }
  for (const e of events) visit(e, [])
  return out
}

export function textOf(messages: MessageWithParts[], role: 'user' | 'assistant' = 'assistant'): string[] {
  return messages.filter((m) => m.role === role).flatMap((m) => m.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text)))
}

export function toolParts(messages: MessageWithParts[]) {
  return messages.flatMap((m) => m.parts.filter((p) => p.type.startsWith('tool-')))
}

/** Polls until `get` returns something (not undefined/false), or fails after `ms`. */
export async function waitFor<T>(get: () => T | undefined | false, ms = 5000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = get()
    if (v !== undefined && v !== false) return v
    if (Date.now() > end) throw new Error('timed out waiting for a condition')
    await new Promise((r) => setTimeout(r, 10))
  }
}
