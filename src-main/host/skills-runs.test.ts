import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toolParts } from '../testing/harness'
import { agentOfRequest, contentText, firstUserText, loopbackHarness, systemOf, toolNamesOf, toolOf, type ChatRequest, type LoopbackHarness } from '../testing/model-requests'

/**
 * Skills (issue 27) end to end at a loopback model through the real provider: what the model is offered, loading one,
 * reading beside it outside the workspace, and every way of writing there refused; subagents and untrusted workspaces.
 */
let lh: LoopbackHarness | undefined
let home: string
const skillDir = () => path.join(home, '.claude', 'skills', 'pdf')
const put = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
}

beforeEach(() => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skills-home-')))
  vi.stubEnv('HOME', home)
  put(path.join(skillDir(), 'SKILL.md'), '---\nname: pdf\ndescription: Fill PDF forms. Use when the user mentions a PDF form.\nallowed-tools: Read, Bash(python:*)\n---\n# PDF forms\nRead reference.md first.\n')
  put(path.join(skillDir(), 'reference.md'), 'FIELD NAMES ARE CASE SENSITIVE\n')
  put(path.join(skillDir(), 'scripts', 'fill.py'), 'print(1)\n')
})
afterEach(async () => {
  await lh?.close()
  lh = undefined
  vi.unstubAllEnvs()
  fs.rmSync(home, { recursive: true, force: true })
})

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] })
const toolResults = (r: ChatRequest) => r.messages.filter((m) => m.role === 'tool').length
const partsOf = (messages: Parameters<typeof toolParts>[0], tool: string) => toolParts(messages).filter((p) => p.data.toolName === tool || p.type === `tool-${tool}`)
const resultOf = (p: ReturnType<typeof toolParts>[number]) => String(p.data.error ?? p.data.output)

describe('skills at the model', () => {
  it('offers the skill by name and description, loads it, reads beside it outside the workspace; nothing writes there (even with --yes)', async () => {
    const ref = path.join(skillDir(), 'reference.md')
    const steps = [
      call('skill', { name: 'pdf' }),
      call('read_file', { path: ref }),
      call('list_dir', { path: skillDir() }),
      call('glob', { path: skillDir(), pattern: '**/*.py' }),
      call('write_file', { path: ref, content: 'pwned' }),
      call('edit_file', { path: ref, old_string: 'FIELD', new_string: 'pwned' }),
      call('bash', { command: `echo pwned > ${ref}` }),
      call('write_file', { path: path.join(skillDir(), 'new.md'), content: 'x' }),
      { text: 'done' },
    ]
    lh = await loopbackHarness((r) => steps[toolResults(r)], { headlessRun: { yes: true, allow: [] } })
    const { messages } = await lh.h.run('fill the PDF form')
    const first = lh.requests().find((r) => agentOfRequest(r) === 'build')!
    expect(toolNamesOf(first)).toContain('skill')
    expect(toolOf(first, 'skill')!.function.description).toContain('Available skills:\n- pdf: Fill PDF forms. Use when the user mentions a PDF form.')

    const loaded = resultOf(partsOf(messages, 'skill')[0])
    expect(loaded).toContain(`Folder: ${skillDir()}`)
    expect(loaded).toContain('- reference.md\n- scripts/fill.py')
    expect(loaded).toContain('# PDF forms\nRead reference.md first.')
    expect(resultOf(partsOf(messages, 'read_file')[0])).toContain('FIELD NAMES ARE CASE SENSITIVE')
    expect(resultOf(partsOf(messages, 'list_dir')[0])).toContain('scripts/')
    // glob in the skill folder: the pattern is judged inside the folder it searches, not as a workspace path.
    expect(resultOf(partsOf(messages, 'glob')[0])).toContain('scripts/fill.py')
    for (const p of [...partsOf(messages, 'write_file'), ...partsOf(messages, 'edit_file'), ...partsOf(messages, 'bash')]) {
      expect(resultOf(p)).toMatch(/Permission denied: denied by your skills folder \/.*\/\.claude\/skills \(read-only\) rule (write|edit)_file "\/.*\/\.claude\/skills(\/\*\*)?": deny/)
    }
    expect(fs.readFileSync(ref, 'utf8')).toBe('FIELD NAMES ARE CASE SENSITIVE\n')
    expect(fs.existsSync(path.join(skillDir(), 'new.md'))).toBe(false)
  })

  it("a skill in Agentry's data dir: bash runs its script (the folder is readable in the sandbox), the rest of the data dir stays hidden", async () => {
    let dir = ''
    const steps = () => [call('skill', { name: 'hello' }), call('bash', { command: `bash ${dir}/scripts/hello.sh; ls ${path.dirname(path.dirname(dir))}` }), { text: 'done' }]
    lh = await loopbackHarness((r) => steps()[toolResults(r)], { headlessRun: { yes: true, allow: [] } })
    dir = path.join(fs.realpathSync(lh.h.dataDir), 'skills', 'hello')
    put(path.join(dir, 'SKILL.md'), '---\nname: hello\ndescription: Says hello. Use when greeting.\n---\nRun scripts/hello.sh.\n')
    put(path.join(dir, 'scripts', 'hello.sh'), 'echo hello from the skill\n')
    const { messages } = await lh.h.run('greet')
    const ran = resultOf(partsOf(messages, 'bash')[0])
    expect(ran).toContain('hello from the skill')
    // Listing the data dir shows only the skills folder: the database and keys beside it are not there.
    expect(ran).not.toMatch(/\.sqlite|\.db\b|keys/)
  })

  it("a link from the workspace into the skill folder, or the person's own allow of the folder, still cannot write there", async () => {
    const ref = path.join(skillDir(), 'reference.md')
    const steps = [
      call('write_file', { path: 'into-skill/reference.md', content: 'pwned' }),
      call('edit_file', { path: 'into-skill/reference.md', old_string: 'FIELD', new_string: 'pwned' }),
      call('bash', { command: 'echo pwned >> into-skill/reference.md' }),
      call('grep', { pattern: 'CASE', path: skillDir() }),
      { text: 'done' },
    ]
    const permissions = JSON.stringify({ '*': 'allow', write_file: { '**': 'allow', [`${home}/**`]: 'allow' }, edit_file: { '**': 'allow', [`${home}/**`]: 'allow' } })
    lh = await loopbackHarness((r) => steps[toolResults(r)], { headlessRun: { yes: true, allow: [] }, permissions })
    fs.symlinkSync(skillDir(), path.join(lh.h.workdir, 'into-skill'))
    const { messages } = await lh.h.run('try')
    for (const tool of ['write_file', 'edit_file', 'bash']) expect(resultOf(partsOf(messages, tool)[0]), tool).toMatch(/denied by your skills folder \/.*\/\.claude\/skills \(read-only\)/)
    expect(fs.readFileSync(ref, 'utf8')).toBe('FIELD NAMES ARE CASE SENSITIVE\n')
    expect(resultOf(partsOf(messages, 'grep')[0])).toContain('FIELD NAMES ARE CASE SENSITIVE')
  })

  it('reading outside the skill folder through a link inside it stays refused', async () => {
    put(path.join(home, 'private.txt'), 'PRIVATE')
    fs.symlinkSync(path.join(home, 'private.txt'), path.join(skillDir(), 'notes.md'))
    const steps = [call('read_file', { path: path.join(skillDir(), 'notes.md') }), call('read_file', { path: path.join(skillDir(), '..', '..', '..', 'private.txt') }), { text: 'done' }]
    lh = await loopbackHarness((r) => steps[toolResults(r)], { headlessRun: { yes: true, allow: [] } })
    const { messages } = await lh.h.run('read')
    for (const p of partsOf(messages, 'read_file')) expect(resultOf(p)).toMatch(/outside the workspace and no rule allows that path/)
  })

  it('a subagent whose rules deny skill (or one skill) is not offered it and cannot load it', async () => {
    put(path.join(home, '.claude', 'skills', 'other', 'SKILL.md'), '---\nname: other\ndescription: Other things.\n---\nbody\n')
    lh = await loopbackHarness(
      (r) => {
        if (firstUserText(r) === 'delegate') return toolResults(r) === 0 ? { toolCalls: [{ name: 'task', arguments: { subagent_type: 'noskills', description: 'a', prompt: 'p' } }, { name: 'task', arguments: { subagent_type: 'onlyother', description: 'b', prompt: 'p' } }] } : { text: 'done' }
        return toolResults(r) === 0 ? call('skill', { name: 'pdf' }) : { text: 'child done' }
      },
      { agents: { noskills: { mode: 'subagent', permission: { '*': 'allow', skill: 'deny' } }, onlyother: { mode: 'subagent', permission: { '*': 'allow', skill: { '*': 'allow', pdf: 'deny' } } } } },
    )
    await lh.h.run('delegate')
    // The task listing promises the skill tool to the child that will have it, and only to it.
    const listing = toolOf(lh.requests().find((r) => firstUserText(r) === 'delegate')!, 'task')!.function.description
    expect(listing).toMatch(/^- onlyother: .* Tools: .*\bskill\b/m)
    expect(listing).not.toMatch(/^- noskills: .* Tools: .*\bskill\b/m)
    const children = lh.requests().filter((r) => firstUserText(r) !== 'delegate' && agentOfRequest(r) !== 'title')
    const noSkills = children.filter((r) => !toolNamesOf(r).includes('skill'))
    const withOther = children.filter((r) => toolNamesOf(r).includes('skill'))
    expect(noSkills.length).toBeGreaterThan(0)
    expect(withOther.length).toBeGreaterThan(0)
    const desc = toolOf(withOther[0], 'skill')!.function.description
    expect(desc).toContain('- other: Other things.')
    expect(desc).not.toContain('pdf')
    // Both children tried `pdf`: one has no such tool, the other is refused.
    const answers = children.filter((r) => toolResults(r) > 0).map((r) => contentText(r.messages.filter((m) => m.role === 'tool').at(-1)!))
    expect(answers.some((a) => /No skill named "pdf"|denied/.test(a))).toBe(true)
    expect(answers.some((a) => /skill|not available|unknown/i.test(a))).toBe(true)
    expect(answers.join('\n')).not.toContain('Read reference.md first.')
  })

  it("a subagent's skills: preloads them into its instructions (only where its rules allow them); a missing one is named", async () => {
    lh = await loopbackHarness(
      (r) => {
        if (firstUserText(r) === 'delegate') return toolResults(r) === 0 ? { toolCalls: ['reader', 'denied'].map((a) => ({ name: 'task', arguments: { subagent_type: a, description: a, prompt: 'p' } })) } : { text: 'done' }
        return { text: 'child done' }
      },
      { agents: { reader: { mode: 'subagent', skills: ['pdf', 'nope'] }, denied: { mode: 'subagent', skills: ['pdf'], permission: { '*': 'allow', skill: { '*': 'allow', pdf: 'deny' } } } } },
    )
    await lh.h.run('delegate')
    const system = (agent: string) => systemOf(lh!.requests().find((r) => (agent === 'build' ? agentOfRequest(r) === 'build' : systemOf(r).startsWith(`You are the "${agent}" agent.`)))!)
    expect(system('reader')).toContain(`# Skills loaded for you\nFollow these instructions where the task calls for them.\n\n<skill name="pdf">\nFolder: ${skillDir()} (read the files beside SKILL.md with read_file)\n\n# PDF forms\nRead reference.md first.\n</skill>\n\nNot available here, so not loaded: nope.`)
    // A preload never widens the rules: denied pdf, the agent starts without its instructions.
    expect(system('denied')).not.toContain('Read reference.md first.')
    expect(system('denied')).toContain('Not available here, so not loaded: pdf.')
    // The parent, which preloads nothing, has no such section.
    expect(system('build')).not.toContain('# Skills loaded for you')
  })

  it("an untrusted workspace's skills are not offered; trusting the workspace offers them", async () => {
    fs.rmSync(path.join(home, '.claude'), { recursive: true, force: true })
    lh = await loopbackHarness(() => ({ text: 'ok' }), { files: { '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy the app.\n---\nRun make deploy.\n' } })
    await lh.h.run('hi')
    expect(toolNamesOf(lh.requests().find((r) => agentOfRequest(r) === 'build')!)).not.toContain('skill')
    const listing = await lh.h.host.api.calls['skills.list']({ workspaceRoot: lh.h.workdir })
    expect(listing.skills.map((s) => [s.name, s.source, s.offered])).toEqual([['deploy', 'workspace', false]])
    const { trust } = await lh.h.host.api.calls['trust.get']({ workspaceRoot: lh.h.workdir })
    await lh.h.host.api.calls['trust.set']({ workspaceRoot: lh.h.workdir, trusted: true, files: trust.files.map((f) => ({ path: f.path, sha256: f.sha256 })) })
    await lh.h.run('again')
    const later = lh.requests().filter((r) => agentOfRequest(r) === 'build').at(-1)!
    expect(toolOf(later, 'skill')!.function.description).toContain('- deploy: Deploy the app.')
  })
})
