import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fromCompact } from '../permissions'
import { createHarness, toolParts, waitFor, type Harness } from '../testing/harness'
import { decideAll, type RuleSources } from './authorize'
import type { RunLevel } from './level'

/**
 * Protected configuration on the real host: every way of reaching it (plain paths, other cases, `..`, symlinked
 * paths and folders, hard links, git's hooksPath, the data dir) under the most permissive headless grant (--yes),
 * and the ordinary files next to it that stay writable.
 */
let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

type Setup = (work: string, data: string) => void
interface Case {
  name: string
  tool?: 'write_file' | 'edit_file'
  /** the path the model passes (may be absolute: data dir) */
  path: (work: string, data: string) => string
  /** the real file that must stay as it was */
  target?: (work: string, data: string) => string
  setup?: Setup
  protected: boolean
  /** rules of the person (default rules otherwise) */
  permissions?: (data: string) => string
}

const rel = (p: string) => () => p
const at = (p: string) => (w: string) => path.join(w, p)
const put = (file: string, text: string, mode?: number) => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text, mode ? { mode } : undefined)
}
const git = (work: string) => execFileSync('git', ['init', '-q', work])

const cases: Case[] = [
  { name: '.agents/permissions.jsonc (new)', path: rel('.agents/permissions.jsonc'), protected: true },
  { name: '.agents/permissions.jsonc (existing, edit_file)', tool: 'edit_file', path: rel('.agents/permissions.jsonc'), setup: (w) => put(path.join(w, '.agents/permissions.jsonc'), '{ "bash": "ask" }'), protected: true },
  { name: '.agents/config.yaml', path: rel('.agents/config.yaml'), protected: true },
  { name: '.agents/agents/evil.md', path: rel('.agents/agents/evil.md'), protected: true },
  { name: '.claude/agents/evil.md', path: rel('.claude/agents/evil.md'), protected: true },
  { name: '.claude/settings.json', path: rel('.claude/settings.json'), protected: true },
  { name: '.opencode/agent/x.md', path: rel('.opencode/agent/x.md'), protected: true },
  { name: '.mcp.json', path: rel('.mcp.json'), protected: true },
  { name: '.git/config', path: rel('.git/config'), setup: git, protected: true },
  { name: '.git/config (edit_file)', tool: 'edit_file', path: rel('.git/config'), setup: git, protected: true },
  { name: '.git/hooks/pre-commit (existing, executable)', path: rel('.git/hooks/pre-commit'), setup: (w) => (git(w), put(path.join(w, '.git/hooks/pre-commit'), 'OLD\n', 0o755)), protected: true },
  { name: '.git/hooks/post-checkout (new)', path: rel('.git/hooks/post-checkout'), setup: git, protected: true },
  { name: '.git/config.worktree', path: rel('.git/config.worktree'), setup: git, protected: true },
  { name: '.git/modules/sub/config', path: rel('.git/modules/sub/config'), setup: git, protected: true },
  { name: '.git/modules/sub/hooks/pre-push', path: rel('.git/modules/sub/hooks/pre-push'), setup: git, protected: true },
  { name: '.git as a gitdir pointer file', path: rel('.git'), setup: (w) => put(path.join(w, '.git'), 'gitdir: /elsewhere\n'), protected: true },
  { name: '.AGENTS/permissions.jsonc (other case)', path: rel('.AGENTS/permissions.jsonc'), protected: true },
  { name: 'src/../.agents/permissions.jsonc', path: rel('src/../.agents/permissions.jsonc'), setup: (w) => fs.mkdirSync(path.join(w, 'src')), target: at('.agents/permissions.jsonc'), protected: true },
  { name: './.claude/x', path: rel('./.claude/x'), target: at('.claude/x'), protected: true },
  { name: 'cfg/permissions.jsonc with a shipped symlink cfg -> .agents', path: rel('cfg/permissions.jsonc'), setup: (w) => (fs.mkdirSync(path.join(w, '.agents')), fs.symlinkSync('.agents', path.join(w, 'cfg'))), target: at('.agents/permissions.jsonc'), protected: true },
  { name: 'a symlinked config folder (.agents -> real-cfg): writing real-cfg/permissions.jsonc', path: rel('real-cfg/permissions.jsonc'), setup: (w) => (fs.mkdirSync(path.join(w, 'real-cfg')), fs.symlinkSync('real-cfg', path.join(w, '.agents'))), protected: true },
  { name: 'a dangling symlink notes.txt -> .agents/permissions.jsonc (write renames into config)', path: rel('notes.txt'), setup: (w) => fs.symlinkSync('.agents/permissions.jsonc', path.join(w, 'notes.txt')), target: at('.agents/permissions.jsonc'), protected: true },
  { name: 'a symlink link.txt -> .git/config', path: rel('link.txt'), setup: (w) => (git(w), fs.symlinkSync('.git/config', path.join(w, 'link.txt'))), target: at('.git/config'), protected: true },
  { name: 'a symlinked hooks dir: hooks -> .git/hooks', path: rel('hooks/pre-commit'), setup: (w) => (git(w), fs.symlinkSync('.git/hooks', path.join(w, 'hooks'))), target: at('.git/hooks/pre-commit'), protected: true },
  { name: 'a hard link notes.txt ⇔ .agents/permissions.jsonc', path: rel('notes.txt'), setup: (w) => (put(path.join(w, '.agents/permissions.jsonc'), '{}'), fs.linkSync(path.join(w, '.agents/permissions.jsonc'), path.join(w, 'notes.txt'))), target: at('.agents/permissions.jsonc'), protected: true },
  { name: '.husky/pre-commit when core.hooksPath = .husky', path: rel('.husky/pre-commit'), setup: (w) => (git(w), execFileSync('git', ['-C', w, 'config', 'core.hooksPath', '.husky'])), protected: true },
  {
    name: "the data dir's permissions.jsonc, though the person's rules allow writing there",
    path: (_w, d) => path.join(d, 'permissions.jsonc'),
    target: (_w, d) => path.join(d, 'permissions.jsonc'),
    permissions: (d) => JSON.stringify({ '*': 'ask', write_file: { '**': 'allow', [`${d}/**`]: 'allow' } }),
    protected: true,
  },
  {
    name: "the data dir's trust.json (same)",
    path: (_w, d) => path.join(d, 'trust.json'),
    target: (_w, d) => path.join(d, 'trust.json'),
    permissions: (d) => JSON.stringify({ '*': 'ask', write_file: { '**': 'allow', [`${d}/**`]: 'allow' } }),
    protected: true,
  },
  // Next to it, still ordinary files (decisions.md says why).
  { name: 'AGENTS.md', path: rel('AGENTS.md'), protected: false },
  { name: 'CLAUDE.md', path: rel('CLAUDE.md'), protected: false },
  { name: '.gitmodules', path: rel('.gitmodules'), protected: false },
  { name: '.gitattributes', path: rel('.gitattributes'), protected: false },
  { name: '.git/info/exclude', path: rel('.git/info/exclude'), setup: git, protected: false },
  { name: 'src/.agents/notes.md (not at the root)', path: rel('src/.agents/notes.md'), protected: false },
  { name: '.agentsx/file', path: rel('.agentsx/file'), protected: false },
  { name: '.husky/pre-commit without core.hooksPath', path: rel('.husky/pre-commit'), setup: git, protected: false },
  { name: 'a hard link between two ordinary files', path: rel('b.txt'), setup: (w) => (put(path.join(w, 'a.txt'), 'x'), fs.linkSync(path.join(w, 'a.txt'), path.join(w, 'b.txt'))), protected: false },
]

function contentOf(file: string): string | null {
  const st = fs.lstatSync(file, { throwIfNoEntry: false })
  if (!st) return null
  if (st.isSymbolicLink()) return `link:${fs.readlinkSync(file)}:${fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''}`
  return st.isDirectory() ? 'dir' : fs.readFileSync(file, 'utf8')
}

describe('protected writes on the real host (headless --yes: the most permissive grant)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const tool = c.tool ?? 'write_file'
    // edit_file needs a string that is there; write_file replaces the whole file.
    const input = (p: string) => (tool === 'edit_file' ? { path: p, old_string: fs.readFileSync(path.join(h!.workdir, p), 'utf8').slice(0, 3), new_string: 'PWNED' } : { path: p, content: 'PWNED\n' })
    h = await createHarness({ headlessRun: { yes: true, allow: [] } })
    const { workdir: work, dataDir: data } = h
    c.setup?.(work, data)
    if (c.permissions) fs.writeFileSync(path.join(data, 'permissions.jsonc'), c.permissions(data))
    const target = (c.target ?? ((w: string, d: string) => path.resolve(w, c.path(w, d))))(work, data)
    const before = contentOf(target)
    h.setScript({ agents: { build: [{ step: 1, tools: [{ name: tool, input: input(c.path(work, data)) }] }, { step: 2, text: 'done' }], '*': [{ text: 'T', repeat: true }] } })
    const r = await h.run('go')
    const part = toolParts(r.messages).find((p) => p.data.toolName === tool || p.type === `tool-${tool}`)
    const result = String(part?.data.error ?? part?.data.output)
    if (c.protected) {
      expect(result).toMatch(/is protected configuration: this changes what agents may do\. A headless run never makes such a change, even with --yes or --allow/)
      expect(contentOf(target)).toBe(before)
    } else {
      expect(result).not.toMatch(/protected/)
      expect(fs.readFileSync(path.resolve(work, c.path(work, data)), 'utf8')).toContain('PWNED')
    }
    expect(h.host.store.approvals.listApprovals({})).toEqual([])
  })
})

describe('protected writes asked in the app', () => {
  const script = (calls: { name: string; input: Record<string, unknown> }[][]) => ({
    agents: { build: [...calls.map((tools, i) => ({ step: i + 1, tools })), { step: calls.length + 1, text: 'done' }], '*': [{ text: 'T', repeat: true }] },
  })

  it('ask with the reason, offer no "always", refuse allow_always, write once on allow_once — even under an "always allow" rule', async () => {
    h = await createHarness({ script: script([[{ name: 'write_file', input: { path: '.agents/permissions.jsonc', content: '{ "read_file": "deny" }' } }]]) })
    h.host.store.approvals.addRule({ scope: 'workspace', scopeKey: h.workdir, tool: 'write_file', pattern: '**', action: 'allow' })
    const { sessionId } = await h.run('go', { wait: false })
    const approval = await waitFor(() => h!.host.store.approvals.listApprovals({ status: 'pending' })[0])
    expect(approval.arguments).toMatchObject({ protected: { path: '.agents/permissions.jsonc', reason: '.agents is protected configuration: this changes what agents may do' } })
    expect(approval.alwaysSuggestions).toEqual([])
    await expect(h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_always', patterns: ['.agents/**'] })).rejects.toMatchObject({ code: 'invalid_request' })
    expect(h.host.store.approvals.listRules().map((r) => r.pattern)).toEqual(['**'])
    await h.host.api.calls['approvals.answer']({ approvalId: approval.id, decision: 'allow_once' })
    await waitFor(() => h!.host.store.sessions.getSession(sessionId)?.status === 'idle')
    expect(fs.readFileSync(path.join(h.workdir, '.agents/permissions.jsonc'), 'utf8')).toContain('read_file')
  })

  it('rules and agents changed during a run apply from the next prompt only', async () => {
    h = await createHarness({ files: { 'a.txt': 'alpha' } })
    const evil = '---\ndescription: new\nmode: subagent\n---\nHi\n'
    h.setScript(
      script([
        [{ name: 'write_file', input: { path: '.agents/permissions.jsonc', content: '{ "read_file": "deny", "bash": "allow" }' } }, { name: 'write_file', input: { path: '.agents/agents/newbie.md', content: evil } }],
        [{ name: 'read_file', input: { path: 'a.txt' } }, { name: 'bash', input: { command: 'touch pwned.txt' } }, { name: 'task', input: { subagent_type: 'newbie', description: 'x', prompt: 'x' } }],
      ]),
    )
    const { sessionId } = await h.run('go', { wait: false })
    // The person approves both protected writes (one at a time).
    for (let i = 0; i < 2; i++) {
      const a = await waitFor(() => h!.host.store.approvals.listApprovals({ status: 'pending' }).find((x) => x.toolName === 'write_file'))
      await h.host.api.calls['approvals.answer']({ approvalId: a.id, decision: 'allow_once' })
    }
    // bash still asks (the old rules, and an untrusted workspace never loosens anyway): deny it.
    const bashAsk = await waitFor(() => h!.host.store.approvals.listApprovals({ status: 'pending' }).find((x) => x.toolName === 'bash'))
    await h.host.api.calls['approvals.answer']({ approvalId: bashAsk.id, decision: 'deny' })
    await waitFor(() => h!.host.store.sessions.getSession(sessionId)?.status === 'idle')
    const parts = toolParts(h.host.store.transcript.listMessages(sessionId))
    const byTool = (t: string) => parts.filter((p) => p.data.toolName === t || p.type === `tool-${t}`)
    // Same run: read_file is still allowed (the new deny is not in force), the new agent does not exist yet.
    expect(byTool('read_file')[0].data.output).toContain('alpha')
    expect(String(byTool('task')[0].data.error)).toMatch(/Invalid arguments for task: subagent_type/)
    expect(fs.existsSync(path.join(h.workdir, 'pwned.txt'))).toBe(false)

    // Next prompt: the workspace's (tightening) deny applies and the agent exists.
    h.setScript(script([[{ name: 'read_file', input: { path: 'a.txt' } }]]))
    const next = await h.run('again', { sessionId })
    const read = toolParts(next.messages).filter((p) => p.data.toolName === 'read_file' || p.type === 'tool-read_file').at(-1)
    expect(String(read?.data.error)).toMatch(/denied by the workspace's \.agents\/permissions\.jsonc rule read_file: deny/)
    expect((await h.host.api.calls['agents.list']({ workspaceRoot: h.workdir })).agents.some((a) => a.name === 'newbie')).toBe(true)
  })
})

describe('asks for writes made by any tool (e.g. a bash redirect, judged as write_file)', () => {
  const level = (workdir: string) =>
    ({
      workdir,
      rootSessionId: 'r',
      chain: [fromCompact({ '*': 'allow' })],
      agentPath: ['build'],
      settings: { rules: { static: fromCompact({ '*': 'allow', write_file: { '**': 'allow', '/DATA/**': 'allow' } }), workspace: [], errors: [] } },
      grants: [],
    }) as unknown as RunLevel
  const rules = (data: string): RuleSources => ({
    runtimeRules: () => fromCompact({ '*': 'allow' }),
    protectedWrite: (abs, wd) => (abs.startsWith(path.join(wd, '.agents')) || abs.startsWith(data) ? 'protected' : null),
  })
  it.each([
    ['redirect into .agents', [{ tool: 'bash', kind: 'command' as const, subjects: ['echo x > .agents/p'] }, { tool: 'write_file', kind: 'path' as const, subjects: ['.agents/p'], access: 'write' as const }], 'ask'],
    ['redirect elsewhere', [{ tool: 'bash', kind: 'command' as const, subjects: ['echo x > out.txt'] }, { tool: 'write_file', kind: 'path' as const, subjects: ['out.txt'], access: 'write' as const }], 'allow'],
    ['a read of .agents', [{ tool: 'read_file', kind: 'path' as const, subjects: ['.agents/p'], access: 'read' as const }], 'allow'],
    ['edit_file without an access flag still counts as a write', [{ tool: 'edit_file', kind: 'path' as const, subjects: ['.agents/p'] }], 'ask'],
    ['an absolute path into the data dir (allowed by an absolute rule)', [{ tool: 'write_file', kind: 'path' as const, subjects: ['/DATA/x'], access: 'write' as const, outsideWorkspace: true }], 'ask'],
  ])('%s', (_name, reqs, expected) => {
    const work = fs.realpathSync(fs.mkdtempSync('/tmp/agentry-pw-'))
    try {
      const d = decideAll(level(work), rules('/DATA'), reqs)
      expect(d.action).toBe(expected)
      if (expected === 'ask') expect(d.protectedWrite?.reason).toBe('protected')
    } finally {
      fs.rmSync(work, { recursive: true, force: true })
    }
  })
})
