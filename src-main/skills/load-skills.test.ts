import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadSkills } from './load-skills'
import { parseSkill } from './parse-skill'
import { filesBeside, skillBody } from './skill-files'

let root: string, data: string, home: string, work: string
const put = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
}
const skill = (name: string, description = `${name} things`, extra = '') => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\nDo it.\n`

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skills-')))
  ;[data, home, work] = ['data', 'home', 'work'].map((d) => path.join(root, d))
  fs.mkdirSync(work, { recursive: true })
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

const load = (trusted = true) => loadSkills({ dataDir: data, workdir: work, home, trusted })

describe('skill discovery', () => {
  it('finds the person\'s and every workspace folder, with source, folder and body', () => {
    put(path.join(data, 'skills/a/SKILL.md'), skill('a'))
    put(path.join(home, '.claude/skills/b/SKILL.md'), skill('b'))
    put(path.join(home, '.claude/skills/b/ref.md'), 'ref')
    for (const [i, f] of ['.agents/skills', '.claude/skills', '.opencode/skill', '.opencode/skills'].entries()) put(path.join(work, f, `w${i}/SKILL.md`), skill(`w${i}`))
    const r = load()
    expect(r.errors).toEqual([])
    expect(r.skills.map((s) => [s.name, s.source])).toEqual([['a', 'person'], ['b', 'person'], ['w0', 'workspace'], ['w1', 'workspace'], ['w2', 'workspace'], ['w3', 'workspace']])
    const b = r.skills[1]
    expect(b).toMatchObject({ description: 'b things', dir: path.join(home, '.claude/skills/b'), offered: true, file: path.join(home, '.claude/skills/b/SKILL.md') })
    expect(skillBody(b.file)).toEqual({ ok: true, body: '# b\nDo it.' })
    expect(filesBeside(b.dir)).toEqual({ files: ['ref.md'], more: 0 })
  })

  it("the person's skill wins a name collision; the workspace's is reported as shadowed", () => {
    put(path.join(home, '.claude/skills/pdf/SKILL.md'), skill('pdf', 'mine'))
    put(path.join(work, '.claude/skills/pdf/SKILL.md'), skill('pdf', 'theirs'))
    const r = load()
    expect(r.skills.map((s) => [s.name, s.description])).toEqual([['pdf', 'mine']])
    expect(r.errors).toEqual([{ file: path.join(work, '.claude/skills/pdf/SKILL.md'), field: 'name', reason: expect.stringMatching(/^shadowed: a skill named "pdf" is already loaded from .*home\/.claude\/skills\/pdf\/SKILL.md$/) }])
  })

  it("an untrusted workspace's skills are listed, not offered; the person's are", () => {
    put(path.join(home, '.claude/skills/mine/SKILL.md'), skill('mine'))
    put(path.join(work, '.claude/skills/theirs/SKILL.md'), skill('theirs'))
    const r = load(false)
    expect(r.skills.map((s) => [s.name, s.offered, s.notOffered])).toEqual([['mine', true, undefined], ['theirs', false, 'the workspace is not trusted (agentry trust)']])
  })

  it('a workspace skill linked to a folder outside the workspace is refused (the folder would become readable)', () => {
    put(path.join(root, 'elsewhere/SKILL.md'), skill('evil'))
    fs.mkdirSync(path.join(work, '.claude/skills'), { recursive: true })
    fs.symlinkSync(path.join(root, 'elsewhere'), path.join(work, '.claude/skills/evil'))
    put(path.join(work, '.claude/skills/sneaky/ok.md'), 'x')
    fs.symlinkSync(path.join(root, 'elsewhere/SKILL.md'), path.join(work, '.claude/skills/sneaky/SKILL.md'))
    const r = load()
    expect(r.skills).toEqual([])
    expect(r.errors.map((e) => e.reason)).toEqual([
      expect.stringMatching(/^links to .*\/elsewhere, outside the workspace; a workspace's skill must be inside it$/),
      expect.stringMatching(/^links to .*elsewhere\/SKILL.md, outside the workspace/),
    ])
  })

  it("the person's linked skill folder loads, at its real path", () => {
    put(path.join(root, 'dotfiles/linked/SKILL.md'), skill('linked'))
    fs.mkdirSync(path.join(home, '.claude/skills'), { recursive: true })
    fs.symlinkSync(path.join(root, 'dotfiles/linked'), path.join(home, '.claude/skills/linked'))
    expect(load().skills.map((s) => [s.name, s.dir])).toEqual([['linked', path.join(root, 'dotfiles/linked')]])
  })
})

describe('SKILL.md', () => {
  const f = '/s/x/SKILL.md'
  it('reads allowed-tools as a comma list or a YAML list, license, and disable-model-invocation', () => {
    const r = parseSkill(skill('x', 'd', 'allowed-tools: Bash(git add:*), Read, Grep\nlicense: MIT\ndisable-model-invocation: true\nmetadata:\n  version: "1"\n'), f, 'x')
    expect(r).toMatchObject({ ok: true, skill: { allowedTools: ['Bash(git add:*)', 'Read', 'Grep'], license: 'MIT', modelInvocable: false, warnings: [] } })
    expect(parseSkill(skill('x', 'd', 'allowed-tools: [Read, Write]\n'), f, 'x')).toMatchObject({ ok: true, skill: { allowedTools: ['Read', 'Write'] } })
  })

  it('context: fork loads (into the calling agent) with a warning that says so and what to do instead', () => {
    const r = parseSkill(skill('x', 'd', 'context: fork\nagent: Explore\n'), f, 'x')
    expect(r.ok && r.skill.warnings).toEqual([{ file: f, line: 4, field: 'context', reason: expect.stringMatching(/^fork is not run as a subagent here: the skill loads into the agent that calls it/) }])
  })

  it('loads an unquoted description with ": " and says which line to quote', () => {
    const r = parseSkill(skill('x', 'Use when: the user asks'), f, 'x')
    expect(r).toMatchObject({ ok: true, skill: { description: 'Use when: the user asks' } })
    expect(r.ok && r.skill.warnings).toEqual([{ file: f, line: 3, field: 'description', reason: expect.stringContaining('Quote it: description: "Use when: the user asks"') }])
  })

  it('fails a missing description, naming the file and field; a missing name takes the folder\'s', () => {
    expect(parseSkill('---\nname: x\n---\nbody', f, 'x')).toEqual({ ok: false, error: { file: f, line: 1, field: 'description', reason: 'description is missing (required: it tells the model when to use the skill)' } })
    const r = parseSkill('---\ndescription: d\n---\nbody', f, 'folder-name')
    expect(r).toMatchObject({ ok: true, skill: { name: 'folder-name', warnings: [{ field: 'name', reason: 'no name: the folder\'s name "folder-name" is used' }] } })
  })

  it('fails broken frontmatter with its line, and a file without any', () => {
    expect(parseSkill('---\nname: x\n  bad: [\n---\n', f, 'x')).toMatchObject({ ok: false, error: { file: f, line: expect.any(Number) } })
    expect(parseSkill('# just markdown\n', f, 'x')).toMatchObject({ ok: false, error: { file: f, reason: expect.any(String) } })
  })

  it('a name with spaces falls back to the folder name with a warning', () => {
    const r = parseSkill(skill('My Skill'), f, 'my-skill')
    expect(r).toMatchObject({ ok: true, skill: { name: 'my-skill', warnings: [{ field: 'name', line: 2 }] } })
  })
})

describe('the parse cache', () => {
  it('re-reads a SKILL.md that changed, and keeps a shadowing note off the cached entry', () => {
    const file = path.join(home, '.claude/skills/x/SKILL.md')
    put(file, skill('x', 'first'))
    put(path.join(work, '.claude/skills/x/SKILL.md'), skill('x', 'theirs'))
    expect(load().skills[0]).toMatchObject({ description: 'first', warnings: [expect.objectContaining({ reason: expect.stringMatching(/^another skill named "x"/) })] })
    put(file, skill('x', 'second, longer'))
    const again = load()
    expect(again.skills[0]).toMatchObject({ description: 'second, longer' })
    expect(again.skills[0].warnings).toHaveLength(1)
    expect(fs.existsSync(path.join(data, 'cache', 'skill-files.json'))).toBe(true)
  })
})
