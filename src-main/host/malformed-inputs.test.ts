/**
 * Malformed inputs of every kind a person (or a broken client) can hand Agentry — agent files, config.yaml in the data
 * dir and in a workspace, permissions.jsonc, script files, bridge payloads — generated into one table. Each case
 * runs on a real host: the bad input is named in the error (its file, or the call and field), and nothing else
 * breaks (the other agents load, runs still run, calls still answer, nothing answers `internal`).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CallOutput } from '../../src-shared'
import { dispatchCall } from '../bridge/dispatch-call'
import { aliasBomb } from '../config/testing/yaml-bombs'
import { createHarness, type Harness } from '../testing/harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const call = async <T>(name: string, input: unknown): Promise<T> => {
  const r = await dispatchCall(h!.host.api, name, input)
  if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`)
  return r.data as T
}

const deep = (open: string, close: string, n: number) => `${open.repeat(n)}${close.repeat(n)}`
const nested = (n: number): unknown => {
  let o: unknown = 1
  for (let i = 0; i < n; i++) o = { subagents: o }
  return o
}
const BIG = 'x'.repeat(3 * 1024 * 1024)

type Kind = 'agent' | 'config (data dir)' | 'config (workspace)' | 'permissions (data dir)' | 'permissions (workspace)' | 'script' | 'bridge'
interface Case {
  kind: Kind
  name: string
  /** the file's text (files), or a bridge call */
  text?: string | Buffer
  call?: { name: string; input: unknown; field?: string }
}

const AGENT_FILES: [string, string | Buffer][] = [
  ['frontmatter never closed', '---\ndescription: never closed\nmode: primary\nYou help.\n'],
  ['YAML syntax error', '---\ndescription: [unclosed\nmode: primary\n---\nYou help.\n'],
  ['tab indentation', '---\ndescription: tabs\npermission:\n\tbash: ask\n---\nYou help.\n'],
  ['alias bomb', `---\ndescription: bomb\n${aliasBomb('z')}---\nYou help.\n`],
  ['frontmatter is a list', '---\n- description\n- mode\n---\nYou help.\n'],
  ['frontmatter is a string', '---\njust words here\n---\nYou help.\n'],
  ['unknown mode', '---\ndescription: odd\nmode: banana\n---\nYou help.\n'],
  ['temperature is a word', '---\ndescription: hot\ntemperature: hot\n---\nYou help.\n'],
  ['duplicate keys', '---\ndescription: one\ndescription: two\n---\nYou help.\n'],
  ['deeply nested flow YAML', `---\ndescription: deep\npermission: ${deep('[', ']', 5000)}\n---\nYou help.\n`],
  ['a file over the size cap', `---\ndescription: huge\n---\n${BIG}\n`],
  ['binary garbage', Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0xfe, 0x00, 0x01, 0x0a, 0x2d, 0x2d, 0x2d, 0x0a])],
  ['unclosed quoted string', '---\ndescription: "never ends\nmode: primary\n---\nYou help.\n'],
  ['undefined alias', '---\ndescription: *nothing\n---\nYou help.\n'],
  ['permission is a number', '---\ndescription: perms\npermission: 12\n---\nYou help.\n'],
]

const CONFIG_FILES: [string, string][] = [
  ['YAML syntax error', 'model: [oops\n'],
  ['unknown key', 'modle: script/test\n'],
  ['providers is a number', 'providers: 5\n'],
  ['provider of an unknown type', 'providers:\n  odd: { type: nope }\n'],
  ['negative maxConcurrent', 'subagents:\n  maxConcurrent: -1\n'],
  ['timeoutSeconds is a word', 'subagents:\n  timeoutSeconds: soon\n'],
  ['alias bomb', aliasBomb('q')],
  ['tab indentation', 'subagents:\n\tmaxConcurrent: 2\n'],
  ['top level is a list', '- model\n- providers\n'],
  ['duplicate keys', 'model: script/test\nmodel: script/other\n'],
  ['deeply nested flow YAML', `providers: ${deep('{a: ', '}', 5000)}\n`],
  ['a file over the size cap', `# ${BIG}\nmodel: script/test\n`],
]

const PERMISSION_FILES: [string, string][] = [
  ['unclosed object', '{ "bash": "ask"'],
  ['trailing garbage', '{ "bash": "ask" } and more'],
  ['an array at the top', '["bash", "ask"]'],
  ['an action that does not exist', '{ "bash": "maybe" }'],
  ['a rule map with a numeric action', '{ "bash": { "git *": 1 } }'],
  ['50k levels of nesting', deep('{"a":', '}', 50_000)],
  ['null', 'null'],
  ['a string', '"allow everything"'],
  ['unterminated string', '{ "bash": "ask }'],
  ['a bare word', 'allow'],
  ['missing commas', '{ "bash": "ask" "edit": "deny" }'],
  ['a number', '42'],
]

const SCRIPT_FILES: [string, string][] = [
  ['YAML syntax error', 'agents: [oops\n'],
  ['no agents', 'usage: { input: 1, output: 1 }\n'],
  ['agents is a number', 'agents: 5\n'],
  ['a typo in a reply', 'agents:\n  "*": [{ txt: hi }]\n'],
  ['a tool name that is a number', 'agents:\n  "*": [{ tools: [{ name: 5, input: {} }] }]\n'],
  ['an alias bomb', aliasBomb('s')],
  ['an error status that is a word', 'agents:\n  "*": [{ error: { status: teapot } }]\n'],
  ['a negative delay', 'agents:\n  "*": [{ text: hi, delayMs: -5 }]\n'],
]

const BRIDGE_CALLS: [string, string, unknown, string?][] = [
  ['a session id that is a number', 'sessions.get', { sessionId: 5 }, 'sessionId'],
  ['a missing session id', 'sessions.get', {}, 'sessionId'],
  ['an unknown key (strict input)', 'sessions.get', { sessionId: 'ses_x', admin: true }, 'admin'],
  ['null input', 'sessions.list', null],
  ['an array as input', 'messages.abort', ['ses_x']],
  ['an answer that is not a decision', 'approvals.answer', { approvalId: 'apr_x', decision: 'maybe' }, 'decision'],
  ['a negative maxConcurrent', 'settings.update', { subagents: { maxConcurrent: -1 } }, 'maxConcurrent'],
  ['a limit that is a word', 'sessions.list', { limit: 'all' }, 'limit'],
  ['an unknown call', 'sessions.destroyAll', {}],
  ['a call named __proto__', '__proto__', {}],
  ['an empty workspace root', 'sessions.create', { workspaceRoot: '' }, 'workspaceRoot'],
  ['a prompt without text', 'messages.prompt', { sessionId: 'ses_x', requestId: 'r' }, 'text'],
  ['a deeply nested input', 'settings.update', nested(2000), 'subagents'],
  ['an unknown abort reason', 'messages.abort', { sessionId: 'ses_x', reason: 'because' }, 'reason'],
]

const CASES: Case[] = [
  ...AGENT_FILES.map(([name, text]) => ({ kind: 'agent' as const, name, text })),
  ...CONFIG_FILES.flatMap(([name, text]) => [
    { kind: 'config (data dir)' as const, name, text },
    { kind: 'config (workspace)' as const, name, text },
  ]),
  ...PERMISSION_FILES.flatMap(([name, text]) => [
    { kind: 'permissions (data dir)' as const, name, text },
    { kind: 'permissions (workspace)' as const, name, text },
  ]),
  ...SCRIPT_FILES.map(([name, text]) => ({ kind: 'script' as const, name, text })),
  ...BRIDGE_CALLS.map(([name, callName, input, field]) => ({ kind: 'bridge' as const, name, call: { name: callName, input, field } })),
]

/** Each check below is what "nothing else broken" means for that kind. */
async function sessionsStillAnswer(): Promise<void> {
  const list = await dispatchCall(h!.host.api, 'sessions.list', {})
  expect(list.ok).toBe(true)
}

async function aRunStillRuns(): Promise<void> {
  const r = await h!.run('hello')
  expect(r.final?.finishReason, JSON.stringify(r.events.filter((e) => e.type === 'error'))).toBe('stop')
}

describe('malformed inputs: the bad one named, nothing else broken', () => {
  it('has at least 50 cases of our own', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50)
  })

  it.each(CASES)('$kind: $name', async (c) => {
    h = await createHarness({ agents: { good: { mode: 'primary' } }, config: { subagents: { maxConcurrent: 2 } } })
    const { dataDir, workdir } = h
    if (c.kind === 'agent') {
      const file = path.join(workdir, '.agents', 'agents', 'broken.md')
      fs.writeFileSync(file, c.text!)
      const list = await call<CallOutput<'agents.list'>>('agents.list', { workspaceRoot: workdir })
      expect(list.errors.find((e) => e.file === file)?.reason, JSON.stringify(list.errors)).toBeTruthy()
      expect(list.agents.map((a) => a.name)).toContain('good')
      expect(list.agents.map((a) => a.name)).not.toContain('broken')
      // Asked for by name, the broken agent is refused with the file and why.
      const created = await dispatchCall(h.host.api, 'sessions.create', { workspaceRoot: workdir, agent: 'broken' })
      expect(created.ok).toBe(false)
      if (!created.ok) expect(created.error.message).toContain(file)
      await aRunStillRuns()
    } else if (c.kind.startsWith('config')) {
      const file = c.kind === 'config (data dir)' ? path.join(dataDir, 'config.yaml') : path.join(workdir, '.agents', 'config.yaml')
      fs.mkdirSync(path.dirname(file), { recursive: true })
      if (c.kind === 'config (data dir)') fs.writeFileSync(file, c.text!)
      else fs.writeFileSync(file, c.text!)
      const settings = await call<CallOutput<'settings.get'>>('settings.get', { workspaceRoot: workdir })
      expect(settings.configIssues.find((i) => i.file === file)?.reason, JSON.stringify(settings.configIssues)).toBeTruthy()
      // The listing and the session list still answer (the config is refused, not the host).
      expect((await dispatchCall(h.host.api, 'agents.list', { workspaceRoot: workdir })).ok).toBe(true)
      await sessionsStillAnswer()
    } else if (c.kind.startsWith('permissions')) {
      const file = c.kind === 'permissions (data dir)' ? path.join(dataDir, 'permissions.jsonc') : path.join(workdir, '.agents', 'permissions.jsonc')
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, c.text!)
      const settings = await call<CallOutput<'settings.get'>>('settings.get', { workspaceRoot: workdir })
      expect(settings.permissionErrors.find((e) => e.file === file)?.reason, JSON.stringify(settings.permissionErrors)).toBeTruthy()
      await aRunStillRuns()
    } else if (c.kind === 'script') {
      const script = path.join(path.dirname(dataDir), 'script.yaml')
      fs.writeFileSync(script, c.text!)
      const later = new Date(Date.now() + 2000)
      fs.utimesSync(script, later, later)
      // The session's model is checked when it is created: refused there, or the run fails, naming the file.
      const created = await dispatchCall(h.host.api, 'sessions.create', { workspaceRoot: workdir })
      if (!created.ok) {
        expect(created.error.code).not.toBe('internal')
        expect(created.error.message).toContain(script)
      } else {
        const bad = await h.run('hello', { sessionId: (created.data as CallOutput<'sessions.create'>).session.id })
        expect(bad.final?.finishReason).toBe('error')
        const error = bad.events.find((e) => e.type === 'error')
        expect(error && 'message' in error ? error.message : '').toContain(script)
      }
      h.setScript({ agents: { '*': [{ text: 'ok', repeat: true }] } })
      await aRunStillRuns()
    } else {
      const { name, input, field } = c.call!
      const r = await dispatchCall(h.host.api, name, input)
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error.code).toBe('invalid_request')
        expect(r.error.message).toContain(field ?? (name === '__proto__' ? 'Unknown bridge call' : name))
      }
      await sessionsStillAnswer()
      await aRunStillRuns()
    }
  }, 60_000)
})
