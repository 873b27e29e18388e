import { beforeAll, describe, expect, it } from 'vitest'
import type { AgentFormat, AgentInfo, PermissionAction } from '../../src-shared'
import { decide, fromCompact, loadShellGrammar, type PermissionRequest } from '../permissions'
import { BUILTIN_TOOLS } from '../tools'
import { AGENTRY_TOOLS, CLAUDE_TOOL_MAP, mcpGrantOf, OPENCODE_TOOL_MAP, offeredTools, parseManifest } from './index'

// Bash lines are judged by parsing them; the grammar loads once (createHost does it in the product).
beforeAll(() => loadShellGrammar())

/** Everything a file with no tool settings is offered (plan_exit only when named). */
const ALL = AGENTRY_TOOLS.filter((t) => t !== 'plan_exit')

function load(frontmatter: string, format: AgentFormat = 'agentry'): { agent: AgentInfo; disabled: boolean } {
  const r = parseManifest('/w/a.md', `---\ndescription: d\n${frontmatter}\n---\nPrompt\n`, 'project', { format })
  if ('errors' in r) throw new Error(JSON.stringify(r.errors))
  return r
}
const agentOf = (frontmatter: string, format: AgentFormat = 'agentry') => load(frontmatter, format).agent
const reasons = (a: AgentInfo) => a.warnings.map((w) => `${w.field}: ${w.reason}`)

/** How the agent's own rules (with nothing else in force) decide a call. */
function verdict(agent: AgentInfo, tool: string, subject = 'src/a.ts'): PermissionAction {
  const kind = tool === 'bash' ? 'command' : tool === 'web_fetch' ? 'host' : tool === 'task' ? 'name' : 'path'
  const req = { tool, kind, subjects: [subject] } as PermissionRequest
  return decide([{ agent: fromCompact(agent.permission), static: [], runtime: [] }], req).action
}

describe('tool names', () => {
  it('the table of our tools is what runs offer (built-in tools + task + plan_exit)', () => {
    expect([...AGENTRY_TOOLS].sort()).toEqual([...BUILTIN_TOOLS.map((t) => t.name), 'task', 'plan_exit'].sort())
  })

  it.each(Object.entries(CLAUDE_TOOL_MAP))('Claude Code tools: %s → %j (only those are offered)', (name, mapped) => {
    const agent = agentOf(`tools: ${name}`, 'claude')
    expect(offeredTools(agent)).toEqual(AGENTRY_TOOLS.filter((t) => mapped.includes(t)))
    if (mapped.length === 0) expect(reasons(agent)).toEqual([`tools: ${name} is not available here`])
    else expect(agent.warnings).toEqual([])
  })

  it.each(Object.entries(CLAUDE_TOOL_MAP).filter(([, m]) => m.length > 0))('Claude Code disallowedTools: %s → %j not offered, the rest are', (name, mapped) => {
    const agent = agentOf(`disallowedTools: [${name}]`, 'claude')
    expect(offeredTools(agent)).toEqual(ALL.filter((t) => !mapped.includes(t)))
    for (const t of mapped) expect(verdict(agent, t)).toBe('deny')
  })

  it.each(Object.entries(OPENCODE_TOOL_MAP))('opencode tools: {%s: false} → %j not offered, the rest keep the default', (key, mapped) => {
    const agent = agentOf(`tools: { ${key}: false }`, 'opencode')
    expect(offeredTools(agent)).toEqual(ALL.filter((t) => !mapped.includes(t)))
    expect(agent.warnings).toEqual([])
  })

  it.each(Object.entries(OPENCODE_TOOL_MAP).filter(([, m]) => m.length > 0))('opencode permission: {%s: deny} → %j denied, everything else still allowed', (key, mapped) => {
    const agent = agentOf(`permission: { ${key}: deny }`, 'opencode')
    for (const t of ALL) expect([t, verdict(agent, t)]).toEqual([t, mapped.includes(t) ? 'deny' : 'allow'])
  })

  it.each(Object.entries(OPENCODE_TOOL_MAP).filter(([, m]) => m.length === 0))('opencode permission: {%s: ask} names nothing here: a warning, no rule', (key) => {
    const agent = agentOf(`permission: { ${key}: ask }`, 'opencode')
    expect(agent.permission).toEqual({ '*': 'allow' })
    expect(reasons(agent)[0]).toMatch(new RegExp(`^permission\\.${key}: ${key} is not available here`))
  })
})

describe('permission semantics', () => {
  it('permission: {edit: deny} denies writing and editing (it used to deny nothing)', () => {
    const agent = agentOf('permission:\n  edit: deny', 'opencode')
    expect(verdict(agent, 'write_file')).toBe('deny')
    expect(verdict(agent, 'edit_file')).toBe('deny')
    expect(verdict(agent, 'read_file')).toBe('allow')
  })

  it('a permission map that names only some tools keeps the default *: allow for the rest, in any folder', () => {
    for (const format of ['agentry', 'claude', 'opencode'] as const) {
      const agent = agentOf('permission: { bash: ask, webfetch: deny }', format)
      expect(agent.permission).toEqual({ '*': 'allow', bash: 'ask', web_fetch: 'deny' })
    }
    // A map with its own "*" says what the rest gets.
    expect(agentOf('permission: { "*": deny, read_file: allow }').permission).toEqual({ '*': 'deny', read_file: 'allow' })
    expect(agentOf('permission: deny', 'opencode').permission).toEqual({ '*': 'deny' })
  })

  it('keeps opencode patterns: bash commands, edit paths and task agents', () => {
    const agent = agentOf(
      'permission:\n  bash:\n    "*": deny\n    "git status*": allow\n  edit:\n    "**/*.env*": deny\n  task:\n    contextscout: allow\n    "*": deny',
      'opencode',
    )
    expect(verdict(agent, 'bash', 'git status')).toBe('allow')
    expect(verdict(agent, 'bash', 'rm -rf x')).toBe('deny')
    expect(verdict(agent, 'write_file', 'config/.env.local')).toBe('deny')
    expect(verdict(agent, 'write_file', 'src/a.ts')).toBe('allow')
    expect(verdict(agent, 'task', 'contextscout')).toBe('allow')
    expect(verdict(agent, 'task', 'other')).toBe('deny')
    expect(offeredTools(agent)).toEqual(ALL)
    // "*" was written after contextscout; listed last it would override it, so it moved first.
    expect(reasons(agent)).toEqual(['permission.task: "*" moved before the specific patterns: the last matching rule wins, so listed last it would override them all'])
  })

  it('reads the misspelled "permissions" key (15 corpus files use it) as permission, with a warning', () => {
    const agent = agentOf('permissions:\n  bash:\n    "*": deny\n  edit:\n    "**/*": deny', 'opencode')
    expect(offeredTools(agent)).toEqual(ALL.filter((t) => !['bash', 'write_file', 'edit_file'].includes(t)))
    expect(reasons(agent)).toEqual(['permissions: read as "permission" (the key opencode and Agentry use); rename it'])
  })

  it('opencode tools switches and the permission map combine in order, permission last', () => {
    const agent = agentOf('tools: { bash: false, write: true }\npermission: { edit: deny }', 'opencode')
    expect(offeredTools(agent)).toEqual(ALL.filter((t) => !['bash', 'write_file', 'edit_file'].includes(t)))
  })

  it('Claude Code patterns: Bash(git status:*) allows only that prefix; disallowedTools patterns deny', () => {
    const agent = agentOf('tools: Read, Bash(git status:*, git diff:*)\ndisallowedTools: Read(./secrets/**)', 'claude')
    expect(offeredTools(agent)).toEqual(['read_file', 'bash'])
    expect(verdict(agent, 'bash', 'git status --short')).toBe('allow')
    expect(verdict(agent, 'bash', 'git diff')).toBe('allow')
    expect(verdict(agent, 'bash', 'git push')).toBe('deny')
    expect(verdict(agent, 'read_file', 'secrets/key.pem')).toBe('deny')
    expect(verdict(agent, 'read_file', 'src/a.ts')).toBe('allow')
  })

  it.each([
    ['a comma-separated string', 'tools: Read, Grep, Glob', ['read_file', 'glob', 'grep']],
    ['a YAML list', 'tools: [Read, Grep, Glob]', ['read_file', 'glob', 'grep']],
    ['lower-case names', 'tools: read, grep', ['read_file', 'grep']],
    ['our own names', 'tools: read_file, bash', ['read_file', 'bash']],
    ['"*" (every tool)', 'tools: "*"', ALL],
    ['nothing (every tool)', 'tools:', ALL],
  ])('Claude Code tools as %s', (_label, line, offered) => {
    expect(offeredTools(agentOf(line, 'claude'))).toEqual(offered)
  })

  it('an empty tools list offers every tool, as in Claude Code, with a warning', () => {
    const agent = agentOf('tools: []', 'claude')
    expect(offeredTools(agent)).toEqual(ALL)
    expect(reasons(agent)).toEqual(['tools: is empty; every tool is offered, as if it were not given'])
  })

  it('mcp__ tools in a tools: list are allowed by the agent’s rules and name the servers it sees; no warning', () => {
    const agent = agentOf('tools: Read, mcp__context7__get-library-docs, mcp__playwright__browser_click\nmcpServers: [context7]', 'claude')
    expect(agent.mcpTools).toEqual(['mcp__context7__get-library-docs', 'mcp__playwright__browser_click'])
    expect(agent.mcpServers).toEqual([{ name: 'context7' }])
    expect(offeredTools(agent)).toEqual(['read_file'])
    expect(agent.warnings).toEqual([])
    expect(verdict(agent, 'mcp__context7__get-library-docs', 'x')).toBe('allow')
    expect(verdict(agent, 'mcp__context7__resolve-library-id', 'x')).toBe('deny')
    expect(verdict(agent, 'mcp__github__create_issue', 'x')).toBe('deny')
    expect(mcpGrantOf(agent)).toEqual({ names: new Set(['context7', 'playwright']), own: [] })
  })

  const grantCases: { label: string; yaml: string; format?: AgentFormat; names: string[] | null; allowed?: string[]; denied?: string[]; warning?: RegExp }[] = [
    { label: 'no MCP settings: every server its caller has', yaml: 'tools: Read', format: 'claude', names: null, denied: ['mcp__github__x'] },
    { label: 'nothing at all', yaml: 'mode: subagent', names: null, allowed: ['mcp__github__x'] },
    { label: 'a whole server (mcp__github)', yaml: 'tools: Read, mcp__github', format: 'claude', names: ['github'], allowed: ['mcp__github__x'], denied: ['mcp__docs__x'] },
    { label: 'a server glob (mcp__github__*)', yaml: 'tools: "mcp__github__*"', format: 'claude', names: ['github'], allowed: ['mcp__github__x'] },
    { label: 'every MCP tool (mcp__*)', yaml: 'tools: "Read, mcp__*"', format: 'claude', names: null, allowed: ['mcp__github__x', 'mcp__docs__y'], denied: ['bash'] },
    { label: 'mcpServers by name only', yaml: 'mcpServers: [github, docs]', format: 'claude', names: ['github', 'docs'], allowed: ['mcp__github__x'] },
    { label: 'mcpServers as text', yaml: 'mcpServers: "github, docs"', format: 'claude', names: ['github', 'docs'] },
    { label: 'an empty mcpServers list: none', yaml: 'mcpServers: []', format: 'claude', names: [] },
    { label: 'disallowedTools an MCP tool', yaml: 'disallowedTools: [mcp__github__delete_repo]', format: 'claude', names: null, allowed: ['mcp__github__x'], denied: ['mcp__github__delete_repo'] },
    { label: 'opencode permission on MCP tools', yaml: 'permission: { "mcp__github__*": deny }', format: 'opencode', names: null, denied: ['mcp__github__x'], allowed: ['mcp__docs__x'] },
    { label: 'opencode switching an MCP tool off', yaml: 'tools: { mcp__github__delete_repo: false }', format: 'opencode', names: null, denied: ['mcp__github__delete_repo'], allowed: ['mcp__github__x'] },
    { label: 'a bad server name', yaml: 'mcpServers: [ok, "bad__name"]', format: 'claude', names: ['ok'], warning: /mcpServers\[1\]: invalid server name "bad__name"/ },
    { label: 'a workspace file’s inline definition: a reference, with a warning', yaml: 'mcpServers:\n  - fs: { command: node, args: [server.js] }', format: 'claude', names: ['fs'], warning: /mcpServers\.fs: inline MCP server definitions are not started from a workspace's agent file/ },
  ]
  it.each(grantCases)('MCP grant: $label', (c) => {
    const agent = agentOf(c.yaml, c.format)
    const grant = mcpGrantOf(agent)
    expect(grant.names === null ? null : [...grant.names]).toEqual(c.names)
    expect(grant.own).toEqual([])
    for (const t of c.allowed ?? []) expect([t, verdict(agent, t, 'x')]).toEqual([t, 'allow'])
    for (const t of c.denied ?? []) expect([t, verdict(agent, t, 'x')]).toEqual([t, 'deny'])
    if (c.warning) expect(reasons(agent).join('\n')).toMatch(c.warning)
    else expect(agent.warnings).toEqual([])
  })

  it('the person’s own agent file may define a server inline; a malformed inline definition is a warning', () => {
    const r = parseManifest('/data/agents/a.md', '---\ndescription: d\nmcpServers:\n  - fs: { command: node, args: [s.js] }\n  - bad: { args: [x] }\n  - github\n---\n', 'user')
    if ('errors' in r) throw new Error(JSON.stringify(r.errors))
    expect(mcpGrantOf(r.agent)).toEqual({ names: new Set(['fs', 'github']), own: [{ name: 'fs', definition: { command: 'node', args: ['s.js'] } }] })
    expect(r.agent.warnings.map((w) => `${w.field}: ${w.reason}`)).toEqual([expect.stringMatching(/^mcpServers\.bad: needs command .*; this server is not available to the agent$/)])
  })

  it('an unknown tool name is a warning, never an error', () => {
    const agent = agentOf('tools: Read, WriteFile', 'claude')
    expect(offeredTools(agent)).toEqual(['read_file'])
    expect(reasons(agent)).toEqual(['tools: WriteFile is not a tool known here; ignored'])
  })
})

describe('fields', () => {
  const cases: { field: string; yaml: string; format?: AgentFormat; expect: Partial<AgentInfo>; warning?: RegExp; notOffered?: string[] }[] = [
    { field: 'maxTurns (Claude Code)', yaml: 'maxTurns: 7', expect: { maxSteps: 7 } },
    { field: 'steps (opencode)', yaml: 'steps: 5', expect: { maxSteps: 5 } },
    { field: 'maxSteps', yaml: 'maxSteps: 4', expect: { maxSteps: 4 } },
    { field: 'temperature', yaml: 'temperature: 0.3', expect: { temperature: 0.3 } },
    { field: 'top_p (opencode)', yaml: 'top_p: 0.9', expect: { topP: 0.9 } },
    { field: 'color', yaml: 'color: blue', expect: { color: 'blue' } },
    { field: 'hidden', yaml: 'hidden: true', expect: { hidden: true } },
    { field: 'background', yaml: 'background: true', expect: { background: true } },
    { field: 'model alias', yaml: 'model: sonnet', expect: { model: 'sonnet' } },
    { field: 'model id', yaml: 'model: claude-sonnet-4-20250514', expect: { model: 'claude-sonnet-4-20250514' } },
    { field: 'mode', yaml: 'mode: primary', format: 'claude', expect: { mode: 'primary' } },
    { field: 'no mode in .claude/agents', yaml: 'model: inherit', format: 'claude', expect: { mode: 'subagent' } },
    { field: 'no mode in .opencode/agent', yaml: 'model: inherit', format: 'opencode', expect: { mode: 'all' } },
    { field: 'no mode, Claude Code fields in .agents/agents', yaml: 'tools: Read, Grep', expect: { mode: 'subagent', source: { kind: 'project', file: '/w/a.md', format: 'claude' } } },
    { field: 'no mode, opencode fields in .agents/agents', yaml: 'tools: { bash: false }', expect: { mode: 'all', source: { kind: 'project', file: '/w/a.md', format: 'opencode' } } },
    { field: 'permissionMode: plan (honoured: read-only)', yaml: 'permissionMode: plan', format: 'claude', expect: {}, notOffered: ['write_file', 'edit_file', 'bash'] },
    { field: 'permissionMode: default', yaml: 'permissionMode: default', format: 'claude', expect: { permission: { '*': 'allow' } } },
    { field: 'permissionMode: acceptEdits', yaml: 'permissionMode: acceptEdits', format: 'claude', expect: {}, warning: /^permissionMode: "acceptEdits" is ignored: approvals here follow permissions\.jsonc/ },
    { field: 'permissionMode: bypassPermissions', yaml: 'permissionMode: bypassPermissions', format: 'claude', expect: {}, warning: /cannot switch them off/ },
    { field: 'permissionMode: dontAsk', yaml: 'permissionMode: dontAsk', format: 'claude', expect: {}, warning: /"dontAsk" is ignored/ },
    { field: 'skills (a list: preloaded)', yaml: 'skills: [pdf, xlsx]', format: 'claude', expect: { skills: ['pdf', 'xlsx'] } },
    { field: 'skills (one line)', yaml: 'skills: pdf, xlsx', format: 'claude', expect: { skills: ['pdf', 'xlsx'] } },
    { field: 'skills (not names)', yaml: 'skills: { pdf: true }', format: 'claude', expect: {}, warning: /^skills: must be a list of skill names, or "a, b" \(got \{"pdf":true\}\); no skill is preloaded$/ },
    { field: 'memory', yaml: 'memory: project', format: 'claude', expect: {}, warning: /^memory: persistent agent memory is not supported here/ },
    { field: 'isolation', yaml: 'isolation: worktree', format: 'claude', expect: { isolation: 'worktree' } },
    { field: 'hooks', yaml: 'hooks: {}', format: 'claude', expect: {}, warning: /^hooks: agent hooks are not supported here/ },
    { field: 'effort', yaml: 'effort: high', format: 'claude', expect: {}, warning: /^effort: reasoning effort/ },
    { field: 'variant', yaml: 'variant: high', format: 'opencode', expect: {}, warning: /^variant: model variants/ },
    { field: 'prompt in the frontmatter', yaml: 'prompt: hi', format: 'opencode', expect: { prompt: 'Prompt' }, warning: /^prompt: the prompt is the text below/ },
    { field: 'an unknown key', yaml: 'author: someone', expect: {}, warning: /^author: not an agent setting here; ignored$/ },
  ]
  it.each(cases)('$field', ({ yaml, format, expect: fields, warning, notOffered }) => {
    const agent = agentOf(yaml, format)
    expect(agent).toMatchObject(fields)
    if (warning) expect(reasons(agent)).toEqual([expect.stringMatching(warning)])
    else expect(agent.warnings).toEqual([])
    if (notOffered) expect(offeredTools(agent)).toEqual(ALL.filter((t) => !notOffered.includes(t)))
  })

  it('disable: true loads the file as disabled (opencode removes the agent)', () => {
    expect(load('disable: true', 'opencode').disabled).toBe(true)
    expect(load('disable: false', 'opencode').disabled).toBe(false)
  })

  it('two keys for one setting: the later one wins, with a warning', () => {
    const agent = agentOf('maxSteps: 3\nsteps: 9', 'opencode')
    expect(agent.maxSteps).toBe(9)
    expect(reasons(agent)).toEqual(['steps: says the same as maxSteps, which it replaces'])
  })
})
