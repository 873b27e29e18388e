import { spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SequencedEvent } from '../../src-shared'
import { DEMO_LABEL } from '../models'
import { startScriptedChatServer, type ChatServerScript, type ScriptedChatServer } from '../models/testing'
import { AGENTRY_BIN, agentry, buildCli, cliEnv, tempDir, writeFiles, type CliRun } from './testing/cli-process'

/** The built `agentry` command in real processes, each with a temp AGENTRY_HOME and workdir. */

beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})

const lines = (s: string) => s.split('\n').filter((l) => l.trim() !== '')
const jsonLines = (s: string): unknown[] => lines(s).map((l) => JSON.parse(l) as unknown)

/** A fresh home + workdir; `run` passes both to the CLI. */
function scene(files: Record<string, string | Record<string, unknown>> = {}) {
  const home = tempDir('cli-home')
  const work = tempDir('cli-work')
  made.push(home, work)
  writeFiles(work, files)
  return {
    home,
    work,
    run: (args: string[], env: Record<string, string> = {}) => agentry(args, { home, cwd: work, env }),
  }
}

/** A script (in `dir`, for `--model script/x`) whose build agent runs `command` with bash, then answers. */
function bashScript(dir: string, command: string): Record<string, string> {
  const file = path.join(dir, 'script.yaml')
  writeFiles(dir, {
    'script.yaml': {
      agents: {
        build: [
          { step: 1, repeat: true, text: 'Running it.', tools: [{ name: 'bash', input: { command } }] },
          { step: 2, repeat: true, text: 'Finished.' },
        ],
        '*': [{ text: 'Title', repeat: true }],
      },
    },
  })
  return { AGENTRY_SCRIPT: file }
}

describe.concurrent('agentry run with the offline demo model (no config)', () => {
  const s = scene()
  let run: CliRun
  let rootId: string
  let childId: string

  beforeAll(async () => {
    run = await s.run(['run', 'hello there'])
    const rows = jsonLines((await s.run(['sessions', '--json'])).stdout) as { id: string; agent: string; depth: number; parentId: string | null }[]
    rootId = rows.find((r) => r.depth === 0)?.id ?? ''
    childId = rows.find((r) => r.depth === 1)?.id ?? ''
  }, 30_000)

  it('answers with the labelled demo reply and exits 0', () => {
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain(DEMO_LABEL)
    expect(run.stdout).toContain('The subagents are done')
  })

  it('lists the root session with its inspectable general child nested under it', async () => {
    const text = (await s.run(['sessions'])).stdout
    const [root, child] = lines(text)
    expect(root).toMatch(new RegExp(`^${rootId}\\s+build\\s+idle`))
    expect(child).toMatch(new RegExp(`^\\s+└ ${childId}\\s+general`))
    expect(lines(text)).toHaveLength(2) // the opaque explore child has no session of its own
  })

  it('shows the opaque explore transcript in place and the general child as a child section', async () => {
    const out = (await s.run(['show', rootId])).stdout
    const task = out.indexOf('task explore "Survey the workspace"')
    const nested = out.indexOf('    explore: [demo model')
    const childHeader = out.indexOf(`  ━━ ${childId} · general`)
    expect(task).toBeGreaterThan(0)
    expect(nested).toBeGreaterThan(task)
    expect(childHeader).toBeGreaterThan(nested)
    // `ls` is read-only: it runs without asking, headless too (issue 28).
    expect(out.slice(childHeader)).toContain('✓ bash {"command":"ls"}')
    // The workdir is empty: the demo must not invent entries or build files from the tools' "empty" notes.
    expect(out).toContain('The workspace has 0 top-level entries')
    expect(out.slice(childHeader)).toContain('I found no package.json or Makefile')
    expect(out).toContain(`child session ${childId}`)
  })

  it('show --json is one JSON object with the transcript and the children', async () => {
    const out = (await s.run(['show', rootId, '--json'])).stdout
    expect(lines(out)).toHaveLength(1)
    const tree = JSON.parse(out) as { session: { id: string }; messages: { parts: { data: Record<string, unknown> }[] }[]; children: { session: { id: string; agent: string } }[] }
    expect(tree.session.id).toBe(rootId)
    expect(tree.children.map((c) => [c.session.id, c.session.agent])).toEqual([[childId, 'general']])
    const cards = tree.messages.flatMap((m) => m.parts.map((p) => p.data.subagent as { agentType: string; transcript?: unknown[] } | undefined)).filter((c) => c !== undefined)
    expect(cards.find((c) => c.agentType === 'explore')?.transcript?.length).toBeGreaterThan(0)
  })

  it('show of an unknown id is a usage error with a hint', async () => {
    const r = await s.run(['show', 'ses_nope'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('no session ses_nope')
  })
})

describe.concurrent('agentry run --json', () => {
  it('prints NDJSON events with increasing seq, subagent events and a final turn_complete', async () => {
    const s = scene()
    const env = { AGENTRY_SCRIPT: path.join(s.home, 'script.yaml') }
    const explore = { name: 'task', input: { subagent_type: 'explore', description: 'Look', prompt: 'look around' } }
    writeFiles(s.home, {
      'script.yaml': {
        agents: {
          build: [
            { step: 1, text: 'Delegating.', tools: [explore, explore] },
            { step: 2, text: 'All done here.' },
          ],
          explore: [{ repeat: true, text: 'Nothing to see.' }],
          '*': [{ text: 'Title', repeat: true }],
        },
      },
    })
    const r = await s.run(['run', '--json', '--model', 'script/x', 'go'], env)
    expect(r.code, r.stderr).toBe(0)
    const [first, ...rest] = jsonLines(r.stdout)
    expect(first).toEqual({ type: 'sandbox', sandbox: { mode: 'bwrap', network: false } })
    const events = rest as SequencedEvent[]
    const seqs = events.map((e) => e.seq)
    expect(seqs.every((n, i) => i === 0 || n > seqs[i - 1])).toBe(true)
    const root = events[0].stream
    expect(events.every((e) => e.stream === root)).toBe(true)
    expect(events.filter((e) => e.event.type === 'subagent_event').length).toBeGreaterThan(2)
    const completes = events.filter((e) => e.event.type === 'turn_complete')
    expect(completes).toHaveLength(1)
    expect(completes[0].event).toMatchObject({ sessionId: root, finishReason: 'stop', text: 'All done here.' })
    // Nothing of the turn streams after it completed.
    expect(events.slice(events.indexOf(completes[0])).some((e) => e.event.type === 'content_delta')).toBe(false)
  })

  it('finishes and saves the run when the reader closes the pipe early (agentry run --json | head -1)', async () => {
    const s = scene()
    writeFiles(s.home, { 'script.yaml': { agents: { '*': [{ repeat: true, text: 'word '.repeat(2000) }] } } })
    const child = spawn(process.execPath, [AGENTRY_BIN, 'run', '--json', '--model', 'script/x', 'go'], {
      cwd: s.work,
      env: cliEnv(s.home, { AGENTRY_SCRIPT: path.join(s.home, 'script.yaml') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.stdout.once('data', () => child.stdout.destroy())
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    expect(stderr).not.toMatch(/EPIPE|Unhandled/)
    expect(code).toBe(0)
    const [session] = jsonLines((await s.run(['sessions', '--json'])).stdout) as { status: string }[]
    expect(session.status).toBe('idle')
  })
})

describe.concurrent('agentry run against a loopback openai-compatible server', () => {
  const servers: ScriptedChatServer[] = []
  afterAll(async () => Promise.all(servers.map((srv) => srv.close())))

  async function withServer(script: ChatServerScript, files: Record<string, string> = {}) {
    const server = await startScriptedChatServer(script)
    servers.push(server)
    const s = scene(files)
    writeFiles(s.home, { 'config.yaml': { model: 'mock/m', providers: { mock: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } } } })
    return { ...s, server }
  }
  type Body = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] }
  const isTitle = (b: Body) => !b.tools?.some((t) => t.function.name === 'read_file')

  it('prints the text answer', async () => {
    const s = await withServer({ respond: (b) => ({ text: isTitle(b as Body) ? 'A title' : 'Hello from the loopback model.' }) })
    const r = await s.run(['run', 'say hello'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('Hello from the loopback model.\n')
    expect(s.server.headers.every((h) => h.authorization === 'Bearer x')).toBe(true)
  })

  it('completes a tool call round trip', async () => {
    const s = await withServer(
      {
        respond: (raw) => {
          const b = raw as Body
          if (isTitle(b)) return { text: 'A title' }
          const last = b.messages[b.messages.length - 1]
          if (last.role === 'tool') return { text: `The note says: ${String(last.content).includes('banana42') ? 'banana42' : 'nothing'}` }
          return { text: 'Reading it. ', toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }] }
        },
      },
      { 'notes.txt': 'banana42\n' },
    )
    const r = await s.run(['run', 'what does the note say?'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('The note says: banana42\n')
  })

  it('stops on 401 with one line naming the provider and its key (exit 2: the config is wrong)', async () => {
    const s = await withServer({ respond: () => ({ status: 401 }) })
    const r = await s.run(['run', 'hello'])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(lines(r.stderr)).toHaveLength(1)
    expect(r.stderr).toMatch(/provider "mock" rejected the API key \(401\).*providers\.mock\.apiKey/)
  })
})

describe.concurrent('headless permissions', () => {
  it('denies an asking tool and says how to allow it', async () => {
    const s = scene()
    const r = await s.run(['run', '--model', 'script/x', 'go'], bashScript(s.home, 'echo cli-bash-ran'))
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe('Finished.\n')
    expect(r.stderr).toMatch(/✗ bash: Permission denied: .*headless.*--yes or --allow bash/)
  })

  it('runs the call when --allow matches it', async () => {
    const s = scene()
    const r = await s.run(['run', '--json', '--allow', 'bash:echo *', '--model', 'script/x', 'go'], bashScript(s.home, 'echo cli-bash-ran'))
    expect(r.code, r.stderr).toBe(0)
    const events = jsonLines(r.stdout).filter((l): l is SequencedEvent => typeof l === 'object' && l !== null && 'seq' in l)
    const end = events.map((e) => e.event).find((e) => e.type === 'tool_call_end')
    expect(end).toMatchObject({ toolName: 'bash', ok: true })
    expect(end?.type === 'tool_call_end' && end.output).toContain('cli-bash-ran')
  })

  it('keeps a permissions.jsonc deny even with --yes', async () => {
    const s = scene({ 'keep.txt': 'precious' })
    writeFiles(s.home, { 'permissions.jsonc': '// user rules\n{ "*": "ask", "bash": { "*": "ask", "rm *": "deny", }, }\n' })
    const r = await s.run(['run', '--yes', '--model', 'script/x', 'go'], bashScript(s.home, 'rm -f keep.txt'))
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/✗ bash: .*denied/i)
    expect(fs.readFileSync(path.join(s.work, 'keep.txt'), 'utf8')).toBe('precious')
  })
})

describe('the shell through the real CLI (issue 9)', () => {
  const ALLOW_ALL_BUT_RM = '{ "bash": { "*": "allow", "rm *": "deny" } }'

  it.each(['bash -c "rm -f keep.txt"', 'env rm -f keep.txt', 'r\\m -f keep.txt', 'f() { rm -f keep.txt; }; f'])(
    'with --yes under allow-all-but-rm, %j leaves the file',
    async (command) => {
      const s = scene({ 'keep.txt': 'precious' })
      writeFiles(s.home, { 'permissions.jsonc': ALLOW_ALL_BUT_RM })
      const r = await s.run(['run', '--yes', '--model', 'script/x', 'go'], bashScript(s.home, command))
      expect(r.code, r.stderr).toBe(0)
      expect(r.stderr).toMatch(/✗ bash: Permission denied: denied by your permissions.jsonc rule bash "rm \*": deny/)
      expect(fs.readFileSync(path.join(s.work, 'keep.txt'), 'utf8')).toBe('precious')
    },
  )

  it('with --yes, a line that cannot be resolved statically is refused, and says why', async () => {
    const s = scene({ 'keep.txt': 'precious' })
    writeFiles(s.home, { 'permissions.jsonc': ALLOW_ALL_BUT_RM })
    const r = await s.run(['run', '--yes', '--model', 'script/x', 'go'], bashScript(s.home, '$(printf rm) -f keep.txt'))
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/✗ bash: Permission denied: asks: the command name `\$\(printf rm\)` is only known at run time.*grants such as --yes do not cover it/)
    expect(fs.existsSync(path.join(s.work, 'keep.txt'))).toBe(true)
  })

  it('a redirect out of the workspace is denied even when the command is allowed; stderr says where bash runs', async () => {
    const s = scene()
    writeFiles(s.home, { 'permissions.jsonc': '{ "bash": { "echo *": "allow" } }' })
    // A name of this workspace's own: the parent folder is the shared temp folder, where other tests write too.
    const outside = `${path.basename(s.work)}-outside.txt`
    const r = await s.run(['run', '--model', 'script/x', 'go'], bashScript(s.home, `echo pwned > ../${outside}`))
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('bash sandbox: bubblewrap — writes only in the workspace and a temp folder; network off')
    expect(r.stderr).toMatch(/✗ bash: Permission denied: ".*outside.txt" is outside the workspace and no rule allows that path → deny/)
    expect(fs.existsSync(path.join(path.dirname(s.work), outside))).toBe(false)
  })
})

describe('bash network through the real CLI', () => {
  let server: http.Server
  let port = 0
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('loopback-reached'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as AddressInfo).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
  const probe = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && tail -n1 <&3`

  it.each([
    ['off by default, also under --yes', '{ "bash": "allow" }', ['--yes'], false],
    ['on with a "network": "allow" rule', '{ "bash": "allow", "network": "allow" }', [], true],
  ])('%s', async (_name, permissions, flags, reached) => {
    const s = scene()
    writeFiles(s.home, { 'permissions.jsonc': permissions })
    const r = await s.run(['run', '--json', ...flags, '--model', 'script/x', 'go'], bashScript(s.home, probe()))
    expect(r.code, r.stderr).toBe(0)
    const [first] = jsonLines(r.stdout)
    expect(first).toEqual({ type: 'sandbox', sandbox: { mode: 'bwrap', network: reached } })
    const end = jsonLines(r.stdout).find((l): l is SequencedEvent => typeof l === 'object' && l !== null && 'seq' in l && (l as SequencedEvent).event.type === 'tool_call_end')
    const output = end?.event.type === 'tool_call_end' ? end.event.output : ''
    expect(output.includes('loopback-reached'), output).toBe(reached)
  })
})

describe.concurrent('agentry agents', () => {
  const s = scene({
    '.agents/agents/reviewer.md': '---\ndescription: Reviews diffs\nmode: subagent\n---\nYou review code.\n',
    '.agents/agents/bad.md': '---\nmode: sideways\n---\nBroken.\n',
  })
  const bad = () => path.join(s.work, '.agents', 'agents', 'bad.md')

  it('lists built-ins and project agents, then the broken file with field and reason', async () => {
    const r = await s.run(['agents'])
    expect(r.code, r.stderr).toBe(0)
    for (const name of ['build', 'plan', 'general', 'explore']) expect(r.stdout).toMatch(new RegExp(`^${name}\\s`, 'm'))
    expect(r.stdout).toMatch(/^reviewer\s+subagent\s+\.agents\/agents\/reviewer\.md/m)
    expect(r.stdout).toContain(`✗ ${bad()}:2: mode: must be one of "primary", "subagent" or "all" (got "sideways")`)
    expect(r.stdout).toContain(`✗ ${bad()}: description: required`)
  })

  it('--json prints agent rows and error rows', async () => {
    const rows = jsonLines((await s.run(['agents', '--json'])).stdout) as { type: string; name?: string; source?: { kind: string }; file?: string; field?: string; reason?: string }[]
    expect(rows.find((r) => r.name === 'reviewer')).toMatchObject({ type: 'agent', source: { kind: 'project' } })
    expect(rows.find((r) => r.name === 'build')).toMatchObject({ type: 'agent', source: { kind: 'builtin' } })
    const errors = rows.filter((r) => r.type === 'error')
    expect(errors.map((e) => [e.file, e.field])).toEqual(expect.arrayContaining([[bad(), 'mode'], [bad(), 'description']]))
    expect(errors.every((e) => typeof e.reason === 'string' && e.reason.length > 0)).toBe(true)
  })
})

describe.concurrent('usage and configuration errors (exit 2)', () => {
  const s = scene()

  it.each([
    ['no prompt', ['run'], /needs a PROMPT/],
    ['an unknown flag', ['run', '--frob', 'x'], /--frob/],
    ['an unknown command', ['frob'], /Unknown command "frob"/],
    ['no command', [], /Usage:/],
    ['--yes with --allow', ['run', '--yes', '--allow', 'bash', 'x'], /either --yes or --allow/],
  ])('%s says what is wrong (the usage only without a command)', async (_name, args, reason) => {
    const r = await s.run(args)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(reason)
    if (args.length === 0) expect(r.stderr).toContain('Usage:\n  agentry run')
    else if (!/--yes/.test(String(reason))) expect(r.stderr).toMatch(/agentry --help/)
    expect(r.stdout).toBe('')
  })

  it('a config.yaml with an unknown key names the file, the key and the reason', async () => {
    const c = scene()
    writeFiles(c.home, { 'config.yaml': 'modle: demo/demo\n' })
    const r = await c.run(['run', 'hi'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${path.join(c.home, 'config.yaml')}: modle: unknown key`)
    expect(r.stderr).not.toMatch(/\n\s+at /) // no stack trace
  })

  it.each([
    ['--model', ['--model', 'nope/m'], ''],
    ['config.yaml model', [], 'model: nope/m\n'],
  ])('an unknown model provider (%s) is one line naming it', async (_name, flags, config) => {
    const c = scene()
    if (config) writeFiles(c.home, { 'config.yaml': config })
    const r = await c.run(['run', ...flags, 'hi'])
    expect(r.code).toBe(2)
    expect(lines(r.stderr)).toEqual([expect.stringContaining("no provider 'nope'")])
    expect(lines((await c.run(['sessions', '--json'])).stdout)).toEqual([]) // no empty session left behind
  })
})

describe.concurrent('AGENTRY_HOME isolation', () => {
  it('two homes do not see each other’s sessions', async () => {
    const a = scene()
    const b = scene()
    const script = path.join(a.home, 'script.yaml')
    writeFiles(a.home, { 'script.yaml': { agents: { '*': [{ text: 'hi', repeat: true }] } } })
    expect((await a.run(['run', '--model', 'script/x', 'in a'], { AGENTRY_SCRIPT: script })).code).toBe(0)
    const inA = jsonLines((await a.run(['sessions', '--json'])).stdout) as { id: string }[]
    expect(inA).toHaveLength(1)
    expect(fs.existsSync(path.join(a.home, 'agentry.db'))).toBe(true)
    expect((await b.run(['sessions'])).stdout).toContain('No sessions yet')
    const shown = await b.run(['show', inA[0].id])
    expect(shown.code).toBe(2)
  })
})
