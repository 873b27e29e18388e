import type { AgentEvent, HeadlessRun, MessageWithParts, PromptAttachment, SequencedEvent } from '../../src-shared'
import { createHost, type Host, type HostOptions } from '../host'
import { resetScriptState } from '../models/testing'
import { createFixture, type FixtureOptions } from './fixture'

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
  run(prompt: string, o?: { agent?: string; sessionId?: string; wait?: boolean; attachments?: PromptAttachment[] }): Promise<RunResult>
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

export interface HarnessOptions extends Partial<HostOptions>, FixtureOptions {
  /** every prompt is headless with these grants, as `agentry run --yes` / `--allow` sends it */
  headlessRun?: HeadlessRun
}

export async function createHarness(o: HarnessOptions = {}): Promise<Harness> {
  resetScriptState()
  const { script: _script, config: _config, files: _files, permissions: _permissions, agents: _agents, headlessRun, ...hostOptions } = o
  const fx = createFixture(o)
  const realWorkdir = fx.workdir
  const host = await createHost({ dataDir: fx.dataDir, defaultWorkspace: realWorkdir, retryDelayMs: 1, ...hostOptions })
  const events: SequencedEvent[] = []
  const unsubscribe = host.api.subscribe({ sessionId: 'all', afterSeq: 0 }, (m) => {
    if (m.kind === 'event') events.push(m.event)
  })

  const settle = async () => {
    do {
      await host.runner.idle()
      await host.runs.settleAll()
    } while (host.runner.runs().length > 0)
    host.store.flush()
  }

  return {
    host,
    dataDir: fx.dataDir,
    workdir: realWorkdir,
    events,
    async run(prompt, ro = {}) {
      const sessionId =
        ro.sessionId ?? (await host.api.calls['sessions.create']({ workspaceRoot: realWorkdir, agent: ro.agent })).session.id
      const from = events.length
      await host.api.calls['messages.prompt']({ sessionId, requestId: `req-${Math.random()}`, text: prompt, ...(ro.attachments ? { attachments: ro.attachments } : {}), ...(headlessRun ? { headless: headlessRun } : {}) })
      if (ro.wait === false) return { sessionId, messages: [], events: [] }
      await settle()
      const own = events.slice(from).filter((e) => e.stream === sessionId).map((e) => e.event)
      const final = [...own].reverse().find((e): e is Extract<AgentEvent, { type: 'turn_complete' }> => e.type === 'turn_complete' && e.sessionId === sessionId)
      return { sessionId, messages: host.store.transcript.listMessages(sessionId), events: own, final }
    },
    setScript: fx.setScript,
    writeAgent: fx.writeAgent,
    async close() {
      unsubscribe()
      await host.stop()
      fx.remove()
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

/** Polls until `get` returns something (not undefined/false), or fails after `ms` (room for a loaded machine). */
export async function waitFor<T>(get: () => T | undefined | false, ms = 15_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = get()
    if (v !== undefined && v !== false) return v
    if (Date.now() > end) throw new Error('timed out waiting for a condition')
    await new Promise((r) => setTimeout(r, 10))
  }
}
