/**
 * A real host in its own process, for restart tests: it opens the data dir, optionally creates a session and sends
 * one prompt, and prints every event it delivers as one NDJSON line on stdout. The test SIGKILLs it at the stage it
 * wants and opens a new host on the same data dir.
 *
 * Usage: node --import tsx host-process.ts '{"dataDir": "...", "workdir": "...", "prompt": "go", "headless": false}'
 * (or `"prompts": [{"text": "...", "agent": "..."}, …]` for several root sessions at once, each a session of its own)
 *
 * Events are delivered only after the transaction that wrote them committed (see events/hub.ts), and stdout writes
 * to a pipe are synchronous on Linux, so every line the test has read describes state that is on disk.
 */
import { z } from 'zod'
import { createHost } from '../create-host'

const Options = z.object({
  dataDir: z.string(),
  workdir: z.string(),
  prompt: z.string().optional(),
  agent: z.string().optional(),
  headless: z.boolean().default(false),
  prompts: z.array(z.object({ text: z.string(), agent: z.string().optional() })).default([]),
})

function line(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n')
}

async function main(): Promise<void> {
  const raw = process.argv[2]
  if (!raw) throw new Error('host-process: pass the options as one JSON argument (dataDir, workdir, prompt?, agent?, headless?)')
  const options = Options.parse(JSON.parse(raw))
  const host = await createHost({ dataDir: options.dataDir, defaultWorkspace: options.workdir, headless: options.headless, retryDelayMs: 1 })
  host.api.subscribe({ sessionId: 'all', afterSeq: 0 }, (m) => {
    if (m.kind === 'event') line({ kind: 'event', event: m.event })
  })
  let sessionId: string | undefined
  if (options.prompt !== undefined) {
    sessionId = (await host.api.calls['sessions.create']({ workspaceRoot: options.workdir, agent: options.agent })).session.id
    await host.api.calls['messages.prompt']({ sessionId, requestId: 'restart-test-1', text: options.prompt })
  }
  const sessionIds: string[] = []
  for (const [i, p] of options.prompts.entries()) {
    const id = (await host.api.calls['sessions.create']({ workspaceRoot: options.workdir, agent: p.agent })).session.id
    await host.api.calls['messages.prompt']({ sessionId: id, requestId: `restart-test-many-${i}`, text: p.text })
    sessionIds.push(id)
  }
  line({ kind: 'ready', pid: process.pid, sessionId, sessionIds })
  // Stay up until killed: the test decides when this host dies.
  setInterval(() => {}, 1 << 30)
}

main().catch((err: unknown) => {
  line({ kind: 'fatal', message: err instanceof Error ? err.message : String(err) })
  process.exit(1)
})
