import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedChatServer, type ScriptedChatResponse, type ScriptedChatServer } from '../models/testing/scripted-chat-server'
import { agentry, buildCli, cliEnv, REPO_ROOT, runNode, tempDir, writeFiles, type CliRun } from './testing/cli-process'

/**
 * Exit codes and words, every case through the real built command (issue 10 item 7): 0 ok, 1 the run failed (model,
 * tool, runtime), 2 usage or configuration (auth errors, unknown session id, port in use, bad AGENTRY_HOME, unknown
 * arguments…). Whatever the code, stderr is readable lines saying what to do: no stack trace, no library class
 * name, no Node warning.
 */
beforeAll(() => buildCli(), 60_000)

const servers: ScriptedChatServer[] = []
const dirs: string[] = []
const holders: net.Server[] = []
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  for (const h of holders) h.close()
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

interface Scene {
  home: string
  work: string
  env: Record<string, string>
}

function scene(): Scene {
  const home = tempDir('exit-home')
  const work = tempDir('exit-work')
  dirs.push(home, work)
  writeFiles(home, { 'script.yaml': { agents: { build: [{ text: 'All done.', repeat: true }], '*': [{ text: 'Title', repeat: true }] } } })
  return { home, work, env: { AGENTRY_SCRIPT: path.join(home, 'script.yaml') } }
}

/** A scene whose model is a loopback OpenAI-compatible server answering `main` to the run (titles get a title). */
async function withServer(main: (body: Body, index: number) => ScriptedChatResponse): Promise<Scene> {
  const server = await startScriptedChatServer({ respond: (b, i) => (isTitle(b as Body) ? { text: 'A title' } : main(b as Body, i)) })
  servers.push(server)
  const s = scene()
  writeFiles(s.home, { 'config.yaml': { model: 'mock/m', providers: { mock: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } } } })
  return s
}
type Body = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] }
const isTitle = (b: Body) => !b.tools?.some((t) => t.function.name === 'read_file')
const afterTools = (b: Body) => b.messages.some((m) => m.role === 'tool')

async function portInUse(): Promise<number> {
  const holder = net.createServer()
  holders.push(holder)
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()))
  return (holder.address() as net.AddressInfo).port
}

function npmStart(env: Record<string, string>): Promise<CliRun> {
  return runNode([path.join(REPO_ROOT, 'scripts', 'start.mjs'), '--no-build'], { cwd: REPO_ROOT, env: cliEnv(env.AGENTRY_HOME ?? '', env) })
}

interface Case {
  name: string
  /** builds the scene and runs the command */
  run(): Promise<CliRun>
  code: number
  /** what stderr must say */
  says?: RegExp
  /** what stdout must say */
  prints?: RegExp
}

const run = (s: Scene, args: string[], env: Record<string, string> = {}) => agentry(args, { home: s.home, cwd: s.work, env: { ...s.env, ...env } })

/** A run whose model lists the folder forever, 150 tokens a step: only its --max-tokens stops it. */
function listForever(maxTokens: string): Promise<CliRun> {
  const s = scene()
  writeFiles(s.home, { 'script.yaml': { usage: { input: 100, output: 50 }, agents: { build: [{ tools: [{ name: 'list_dir', input: {} }], repeat: true }], '*': [{ text: 'T', repeat: true }] } } })
  return run(s, ['run', '--model', 'script/x', '--max-tokens', maxTokens, 'list forever'])
}

const CASES: Case[] = [
  { name: 'a run that answers', run: () => run(scene(), ['run', '--model', 'script/x', 'hello']), code: 0, prints: /All done\./ },
  {
    name: 'a run whose model fails (HTTP 400)',
    run: async () => {
      const s = scene()
      writeFiles(s.home, { 'script.yaml': { agents: { build: [{ error: { status: 400, message: 'context too long' } }], '*': [{ text: 'T', repeat: true }] } } })
      return run(s, ['run', '--model', 'script/x', 'hello'])
    },
    code: 1,
    says: /context too long/,
  },
  {
    name: 'a run that reaches its --max-tokens (the whole tree counts; it stops and says why in one line)',
    run: () => listForever('200'),
    code: 1,
    // 150 tokens a step: after the first, a second would go past 200, so it stops there.
    says: /^agentry: Stopped before its next model request: this run's budget \(--max-cost \/ --max-tokens\) would be used up by the next request \(tokens: 150 of 200 tokens; the last one took 150 tokens\)\.\n/m,
  },
  {
    name: 'a run past 80% of its budget says so once on stderr, then stops before going past it',
    run: () => listForever('180'),
    code: 1,
    says: /^budget: over 80% spent — 150 of 180 tokens \(this run's budget \(--max-cost \/ --max-tokens\)\)\n(.|\n)*^agentry: Stopped before its next model request/m,
  },
  { name: 'a --max-cost that is not an amount', run: () => run(scene(), ['run', '--max-cost', 'lots', 'hello']), code: 2, says: /--max-cost "lots": expected an amount in US dollars above 0/ },
  { name: 'an auth error (401)', run: async () => run(await withServer(() => ({ status: 401 })), ['run', 'hello']), code: 2, says: /mock.*(key|config)/i },
  { name: 'an unknown session id', run: () => run(scene(), ['show', 'ses_unknown']), code: 2, says: /no session ses_unknown.*agentry sessions/ },
  {
    name: 'serve on a port in use',
    run: async () => run(scene(), ['serve', '--port', String(await portInUse())]),
    code: 2,
    says: /already in use.*--port/,
  },
  {
    name: 'AGENTRY_HOME is a file (sessions)',
    run: () => {
      const s = scene()
      fs.writeFileSync(path.join(s.home, 'not-a-folder'), '')
      return run(s, ['sessions'], { AGENTRY_HOME: path.join(s.home, 'not-a-folder') })
    },
    code: 2,
    says: /AGENTRY_HOME.*not-a-folder.*not a folder/,
  },
  {
    name: 'AGENTRY_HOME is a file (run)',
    run: () => {
      const s = scene()
      fs.writeFileSync(path.join(s.home, 'not-a-folder'), '')
      return run(s, ['run', '--model', 'script/x', 'hi'], { AGENTRY_HOME: path.join(s.home, 'not-a-folder') })
    },
    code: 2,
    says: /AGENTRY_HOME.*not-a-folder.*not a folder/,
  },
  { name: 'agentry --help', run: () => run(scene(), ['--help']), code: 0, prints: /Usage:\n {2}agentry run/ },
  { name: 'agentry --version', run: () => run(scene(), ['--version']), code: 0, prints: /^agentry \d+\.\d+\.\d+\n$/ },
  { name: 'agentry -v', run: () => run(scene(), ['-v']), code: 0, prints: /^agentry \d+\.\d+\.\d+\n$/ },
  { name: 'agentry run --help', run: () => run(scene(), ['run', '--help']), code: 0, prints: /Usage:/ },
  { name: 'an unknown option', run: () => run(scene(), ['run', '--bogus', 'hi']), code: 2, says: /--bogus.*agentry --help/ },
  { name: 'an unknown command', run: () => run(scene(), ['frobnicate']), code: 2, says: /Unknown command "frobnicate".*agentry --help/ },
  { name: '--model ""', run: () => run(scene(), ['run', '--model', '', 'hi']), code: 2, says: /--model.*empty.*provider\/model/ },
  { name: '--agent ""', run: () => run(scene(), ['run', '--agent', '', 'hi']), code: 2, says: /--agent.*empty/ },
  { name: 'sessions with an extra argument', run: () => run(scene(), ['sessions', 'extra']), code: 2, says: /takes no arguments.*extra/ },
  { name: 'show with two ids', run: () => run(scene(), ['show', 'ses_a', 'ses_b']), code: 2, says: /takes no arguments.*ses_b/ },
  { name: 'agents with an extra argument', run: () => run(scene(), ['agents', 'extra']), code: 2, says: /takes no arguments.*extra/ },
  { name: 'run without a prompt', run: () => run(scene(), ['run']), code: 2, says: /needs a PROMPT/ },
  { name: '--workdir that does not exist', run: () => run(scene(), ['run', '--workdir', '/nonexistent/x', 'hi']), code: 2, says: /--workdir.*not a folder/ },
  {
    name: '--agent whose file failed to load',
    run: () => {
      const s = scene()
      writeFiles(s.work, { '.agents/agents/reviewer.md': '---\ndescription: [unclosed\nmode: primary\n---\nReview.\n' })
      return run(s, ['run', '--model', 'script/x', '--agent', 'reviewer', 'hi'])
    },
    code: 2,
    says: /reviewer\.md.*(line|YAML)/,
  },
  {
    name: 'a config.yaml that is not valid YAML',
    run: () => {
      const s = scene()
      writeFiles(s.home, { 'config.yaml': 'model: [oops\n' })
      return run(s, ['run', '--model', 'script/x', 'hi'])
    },
    code: 2,
    says: /config\.yaml/,
  },
  { name: 'an empty model response', run: async () => run(await withServer(() => ({ text: '' })), ['run', 'hello']), code: 1, says: /empty answer/ },
  {
    name: 'a tool call with an empty name',
    run: async () => run(await withServer((b) => (afterTools(b) ? { text: '' } : { toolCalls: [{ name: '', arguments: {} }] })), ['run', 'hello']),
    code: 1,
    says: /sent a tool call without a name/,
  },
  {
    name: 'garbage SSE lines',
    run: async () => run(await withServer(() => ({ rawSse: ['{not json', 'garbage', '[DONE]'] })), ['run', 'hello']),
    code: 1,
    says: /mock.*(malformed|could not be read)/i,
  },
  {
    name: '300 tool calls in one step',
    run: async () => {
      const s = await withServer((b) => (afterTools(b) ? { text: 'Listed 300 times.' } : { toolCalls: Array.from({ length: 300 }, (_, i) => (i % 3 ? { name: 'grep', arguments: { pattern: `needle${i}` } } : { name: 'list_dir', arguments: { path: '.' } })) }))
      return run(s, ['run', 'hello'])
    },
    code: 0,
    prints: /Listed 300 times\./,
  },
  {
    name: 'npm start when Electron is missing',
    run: () => npmStart({ AGENTRY_HOME: tempDir('exit-start'), ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent/electron' }),
    code: 1,
    says: /Electron binary is not installed.*npm run serve/,
  },
]

/** Lines no person should see: stack frames, library error class names, Node's own warnings. */
const NOISE = /^\s+at |\b(SyntaxError|TypeError|RangeError|ReferenceError|StoreError|HostError|AI_\w+|ZodError|SqliteError)\b|Warning|node:internal|\(Use `node --trace/m

describe.concurrent('exit codes and words', () => {
  it.each(CASES)('$name → exit $code', async (c) => {
    const r = await c.run()
    expect(r.code, `stdout:\n${r.stdout}\nstderr:\n${r.stderr}`).toBe(c.code)
    if (c.says) expect(r.stderr).toMatch(c.says)
    if (c.prints) expect(r.stdout).toMatch(c.prints)
    expect(r.stderr).not.toMatch(NOISE)
    if (c.code === 2) expect(r.stderr.split('\n').filter((l) => l.trim()).length, r.stderr).toBeLessThanOrEqual(3)
  }, 120_000)
})
