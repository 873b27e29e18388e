/**
 * Agent files through the host: the model an agent's file names is the one its runs use (primary, per-message,
 * subagent); `agents.list` says what each file means here; `agents.create` writes a file that loads; a hostile
 * YAML file anywhere never makes a bridge call answer `internal`.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CallOutput } from '../../src-shared'
import { AgentRegistry } from '../agents'
import { dispatchCall } from '../bridge/dispatch-call'
import { startScriptedChatServer } from '../models/testing'
import { aliasBomb } from '../config/testing/yaml-bombs'
import { createHarness, type Harness } from '../testing/harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const SONNET = { provider: 'script', model: 'sonnet-x' }
const aliases = { models: { aliases: { sonnet: 'script/sonnet-x' } } }
const modelsOf = (messages: { role: string; metadata: Record<string, unknown> }[]) => messages.filter((m) => m.role === 'assistant').map((m) => m.metadata.model)
const call = async <T>(name: string, input: unknown): Promise<T> => {
  const r = await dispatchCall(h!.host.api, name, input)
  if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`)
  return r.data as T
}

describe('an agent file\'s model', () => {
  it('is what a primary session opened with the agent runs on (alias through models.aliases)', async () => {
    h = await createHarness({ config: aliases, agents: { lead: { mode: 'primary', model: 'sonnet' } } })
    const r = await h.run('hello', { agent: 'lead' })
    expect(h.host.store.sessions.getSession(r.sessionId)?.model).toEqual(SONNET)
    expect(modelsOf(r.messages)).toEqual([SONNET])
  })

  it('that cannot be resolved leaves the agent loaded, running on the default model, with a warning saying how to map it', async () => {
    h = await createHarness({ agents: { lead: { mode: 'primary', model: 'claude-opus-3-x' } } })
    const r = await h.run('hello', { agent: 'lead' })
    expect(modelsOf(r.messages)).toEqual([{ provider: 'script', model: 'test' }])
    const list = await call<CallOutput<'agents.list'>>('agents.list', { workspaceRoot: h.workdir })
    const lead = list.agents.find((a) => a.name === 'lead')!
    expect(lead.resolvedModel).toMatchObject({ spec: 'claude-opus-3-x', ref: null, via: 'unresolved' })
    expect(lead.warnings).toEqual([{ field: 'model', reason: expect.stringContaining('runs on the inherited model instead. To use it, add a provider of type anthropic') }])
  })

  it('a tier (haiku, sonnet, opus) whose provider is missing runs on the person\'s own model of that tier, and says so', async () => {
    h = await createHarness({ config: { smallModel: 'script/small' }, agents: { quick: { mode: 'primary', model: 'haiku' }, deep: { mode: 'primary', model: 'opus' } } })
    const r = await h.run('hello', { agent: 'quick' })
    expect(modelsOf(r.messages)).toEqual([{ provider: 'script', model: 'small' }])
    const list = await call<CallOutput<'agents.list'>>('agents.list', { workspaceRoot: h.workdir })
    const by = (n: string) => list.agents.find((a) => a.name === n)!
    expect(by('quick').resolvedModel).toEqual({
      spec: 'haiku',
      ref: 'script/small',
      via: 'tier',
      detail: 'alias "haiku" (default models.aliases) → anthropic/claude-haiku-5-5, but no "anthropic" provider is configured: the small model (smallModel) script/small instead',
    })
    expect(by('deep').resolvedModel).toMatchObject({ ref: 'script/test', via: 'tier', detail: expect.stringMatching(/: the default model \(model\) script\/test instead$/) })
    expect(by('quick').warnings).toEqual([])
  })

  it('is used for a message sent with that agent in another agent\'s session', async () => {
    h = await createHarness({ config: aliases, agents: { reviewer: { mode: 'all', model: 'sonnet' } } })
    const first = await h.run('start')
    await h.host.api.calls['messages.prompt']({ sessionId: first.sessionId, requestId: 'r2', text: 'review it', agent: 'reviewer' })
    await h.host.runner.idle()
    h.host.store.flush()
    expect(modelsOf(h.host.store.transcript.listMessages(first.sessionId))).toEqual([{ provider: 'script', model: 'test' }, SONNET])
  })

  it('reaches the provider: an opencode agent\'s model alias, temperature and top_p in the HTTP request', async () => {
    const server = await startScriptedChatServer({ respond: () => ({ text: 'hi' }) })
    try {
      h = await createHarness({
        config: { model: 'srv/default', providers: { srv: { type: 'openai-compatible', baseURL: server.url, apiKey: 'x' } }, models: { aliases: { sonnet: 'srv/sonnet-5' } } },
        files: { '.opencode/agent/writer.md': '---\ndescription: writes\nmode: primary\nmodel: sonnet\ntemperature: 0.3\ntop_p: 0.9\n---\nWrite.\n' },
      })
      await h.run('hello', { agent: 'writer' })
      // (the other request is the title, run by the hidden title agent)
      expect(server.requests).toContainEqual(expect.objectContaining({ model: 'sonnet-5', temperature: 0.3, top_p: 0.9 }))
    } finally {
      await server.close()
    }
  })

  it('is what a subagent runs on, opaque or inspectable', async () => {
    const task = (type: string) => ({ name: 'task', input: { subagent_type: type, description: type, prompt: 'go' } })
    h = await createHarness({
      config: aliases,
      agents: { quick: { mode: 'subagent', model: 'sonnet' }, watched: { mode: 'subagent', model: 'sonnet', inspectable: true } },
      script: { agents: { build: [{ step: 1, tools: [task('quick'), task('watched')] }, { step: 2, text: 'done' }], '*': [{ text: 'ok', repeat: true }] } },
    })
    const r = await h.run('fan out')
    const cards = r.messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool-task')).map((p) => p.data.subagent as { taskId: string; transcript?: never[] })
    expect(modelsOf(cards[0].transcript ?? [])).toEqual([SONNET])
    expect(h.host.store.sessions.getSession(cards[1].taskId)?.model).toEqual(SONNET)
    expect(modelsOf(h.host.store.transcript.listMessages(cards[1].taskId))).toEqual([SONNET])
  })
})

describe('agents.list', () => {
  it('gives each agent its source, format, effective model, offered tools, rules and warnings; shadowed folders; errors with lines', async () => {
    h = await createHarness({
      config: { providers: { anthropic: { type: 'anthropic', apiKey: 'x' } } },
      files: {
        '.agents/agents/own.md': '---\ndescription: mine\n---\n',
        '.claude/agents/hidden-by-rule.md': '---\ndescription: not read\n---\n',
        '.opencode/agent/reviewer.md': '---\ndescription: reviews\nmode: subagent\nmodel: anthropic/claude-haiku-4-5\nversion: 2\npermission:\n  edit: deny\n  bash:\n    "*": ask\n---\n',
        '.opencode/agent/broken.md': '---\ndescription: [unclosed\n---\n',
      },
    })
    const list = await call<CallOutput<'agents.list'>>('agents.list', { workspaceRoot: h.workdir })
    const reviewer = list.agents.find((a) => a.name === 'reviewer')!
    expect(reviewer).toMatchObject({
      mode: 'subagent',
      source: { kind: 'project', format: 'opencode', file: path.join(h.workdir, '.opencode', 'agent', 'reviewer.md') },
      resolvedModel: { spec: 'anthropic/claude-haiku-4-5', ref: 'anthropic/claude-haiku-4-5', via: 'explicit' },
      offeredTools: ['read_file', 'list_dir', 'glob', 'grep', 'bash', 'web_fetch', 'todo', 'question', 'task'],
      permissionRules: [
        { tool: '*', pattern: '*', action: 'allow' },
        { tool: 'write_file', pattern: '*', action: 'deny' },
        { tool: 'edit_file', pattern: '*', action: 'deny' },
        { tool: 'bash', pattern: '*', action: 'ask' },
      ],
      warnings: [{ field: 'version', line: 5, reason: 'not an agent setting here; ignored' }],
    })
    // Listings never carry prompts (a few hundred agents made the answer megabytes); runs still get them.
    expect(list.agents.filter((a) => 'prompt' in a)).toEqual([])
    expect(list.folders.map((f) => [path.relative(h!.workdir, f.dir), f.status, f.files])).toEqual([
      ['.agents/agents', 'read', 1],
      ['.opencode/agent', 'read', 2],
      ['.claude/agents', 'shadowed', 1],
    ])
    expect(list.errors).toEqual([
      { file: path.join(h.workdir, '.opencode', 'agent', 'broken.md'), field: 'frontmatter', line: 3, reason: expect.stringMatching(/^YAML syntax error at line 3:1: .*; a \{ … \} or \[ … \] opened above is not closed$/) },
    ])
  })
})

describe('a YAML alias bomb (bounded parsing)', () => {
  it.each([
    ['an agent file', 'agent'],
    ['the data dir config.yaml', 'user-config'],
    ['the workspace config.yaml', 'project-config'],
  ])('in %s: agents.list and sessions.create answer (never "internal"), and the file and line are named', async (_label, where) => {
    h = await createHarness({ files: where === 'agent' ? { '.agents/agents/bomb.md': `---\ndescription: boom\n${aliasBomb()}---\n` } : {} })
    const file =
      where === 'user-config' ? path.join(h.dataDir, 'config.yaml') : where === 'project-config' ? path.join(h.workdir, '.agents', 'config.yaml') : path.join(h.workdir, '.agents', 'agents', 'bomb.md')
    if (where !== 'agent') {
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.appendFileSync(file, where === 'user-config' ? `\n${aliasBomb('zz')}` : aliasBomb('zz'))
    }
    const list = await dispatchCall(h.host.api, 'agents.list', { workspaceRoot: h.workdir })
    expect(list.ok).toBe(true)
    const created = await dispatchCall(h.host.api, 'sessions.create', { workspaceRoot: h.workdir })
    expect(created).toMatchObject({ ok: true })
    if (where === 'agent') {
      expect(list.ok && list.data).toMatchObject({ errors: [{ file, field: 'frontmatter', line: 4, reason: expect.stringMatching(/^YAML refused at line 4:\d+: aliases/) }] })
    } else {
      const settings = await call<CallOutput<'settings.get'>>('settings.get', { workspaceRoot: h.workdir })
      expect(settings.configIssues).toEqual([{ file, path: '', reason: expect.stringMatching(/^YAML refused at line \d+:\d+: aliases \(\*name\) expand to more than 50 copies/) }])
    }
  })
})

describe('agents.create', () => {
  const input = { scope: 'workspace', name: 'Code Reviewer', description: 'Reviews: carefully', mode: 'subagent', tools: ['read_file', 'grep'], model: 'sonnet', prompt: 'You review code.' }

  it('writes an ordinary file into .agents/agents that then loads with what the form said', async () => {
    h = await createHarness()
    const out = await call<CallOutput<'agents.create'>>('agents.create', { workspaceRoot: h.workdir, ...input })
    expect(out).toEqual({ file: path.join(h.workdir, '.agents', 'agents', 'code-reviewer.md'), name: 'code-reviewer' })
    expect(fs.readFileSync(out.file, 'utf8')).toBe('---\nname: Code Reviewer\ndescription: "Reviews: carefully"\nmode: subagent\ntools: read_file, grep\nmodel: sonnet\n---\nYou review code.\n')
    const list = await call<CallOutput<'agents.list'>>('agents.list', { workspaceRoot: h.workdir })
    expect(list.agents.find((a) => a.name === 'code-reviewer')).toMatchObject({
      displayName: 'Code Reviewer',
      description: 'Reviews: carefully',
      mode: 'subagent',
      model: 'sonnet',
      offeredTools: ['read_file', 'grep'],
      source: { format: 'agentry' },
      // `sonnet` is a tier: without an anthropic provider it is the default model, not a warning.
      resolvedModel: { spec: 'sonnet', ref: 'script/test', via: 'tier', detail: expect.stringContaining('no "anthropic" provider is configured: the default model (model) script/test instead') },
      warnings: [],
    })
    // The listing leaves prompts out; the agent a run gets has it.
    const registry = new AgentRegistry({ dataDir: h.dataDir, watch: false })
    expect(registry.resolve(h.workdir).agents.find((a) => a.name === 'code-reviewer')?.prompt).toBe('You review code.')
    registry.dispose()
  })

  it('never overwrites: an existing file or an agent of that name in the same folder is a conflict, and the file is unchanged', async () => {
    h = await createHarness({ files: { '.agents/agents/code-reviewer.md': '---\ndescription: theirs\n---\n' } })
    const r = await dispatchCall(h.host.api, 'agents.create', { workspaceRoot: h.workdir, ...input })
    expect(r).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('already exists') } })
    expect(fs.readFileSync(path.join(h.workdir, '.agents', 'agents', 'code-reviewer.md'), 'utf8')).toBe('---\ndescription: theirs\n---\n')
  })

  it('writes into .claude/agents when only that folder exists (creating .agents/agents would hide it), and into the user folder', async () => {
    h = await createHarness({ files: { '.claude/agents/old.md': '---\ndescription: old\n---\n' } })
    const ws = await call<CallOutput<'agents.create'>>('agents.create', { workspaceRoot: h.workdir, ...input, mode: 'primary' })
    expect(ws.file).toBe(path.join(h.workdir, '.claude', 'agents', 'code-reviewer.md'))
    expect(fs.existsSync(path.join(h.workdir, '.agents', 'agents'))).toBe(false)
    const user = await call<CallOutput<'agents.create'>>('agents.create', { workspaceRoot: h.workdir, ...input, name: 'helper', scope: 'user', tools: undefined, model: undefined })
    expect(user.file).toBe(path.join(h.dataDir, 'agents', 'helper.md'))
    const list = await call<CallOutput<'agents.list'>>('agents.list', { workspaceRoot: h.workdir })
    expect(list.agents.map((a) => a.name)).toEqual(expect.arrayContaining(['old', 'code-reviewer', 'helper']))
    expect(list.agents.find((a) => a.name === 'code-reviewer')?.mode).toBe('primary')
    expect(list.agents.find((a) => a.name === 'helper')?.offeredTools).toHaveLength(11)
  })

  it.each([
    [{ name: '!!!' }, 'invalid_request'],
    [{ tools: ['read_file', 'teleport'] }, 'invalid_request'],
    [{ description: '  ' }, 'invalid_request'],
    [{ model: 'two words' }, 'invalid_request'],
  ])('refuses %j', async (patch, code) => {
    h = await createHarness()
    const r = await dispatchCall(h.host.api, 'agents.create', { workspaceRoot: h.workdir, ...input, ...patch })
    expect(r).toMatchObject({ ok: false, error: { code } })
    expect(fs.existsSync(path.join(h.workdir, '.agents', 'agents'))).toBe(false)
  })
})
