import fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { AgentInfo } from '../../src-shared'
import { BUILTIN_AGENTS, DEFAULT_AGENT, callableSubagents, parseManifest, pickerAgents } from './index'

const byName = new Map(BUILTIN_AGENTS.map((a) => [a.name, a]))
const RESOURCES = fileURLToPath(new URL('../../resources/agents/', import.meta.url))

describe('built-in agents', () => {
  it('are the seven documented agents, all valid AgentInfo', () => {
    expect(BUILTIN_AGENTS.map((a) => a.name)).toEqual(['build', 'plan', 'general', 'explore', 'title', 'summary', 'compaction'])
    for (const a of BUILTIN_AGENTS) {
      expect(AgentInfo.parse(a)).toEqual(a)
      expect(a.source).toEqual({ kind: 'builtin' })
      expect(a.prompt.length).toBeGreaterThan(50)
    }
    expect(byName.get(DEFAULT_AGENT)?.mode).toBe('primary')
  })

  it('build is a full-access primary; plan is read-only and owns plan_exit', () => {
    expect(byName.get('build')).toMatchObject({ mode: 'primary', permission: { '*': 'allow' }, maxSteps: 50 })
    const plan = byName.get('plan')!
    expect(plan).toMatchObject({ mode: 'primary', maxSteps: 30 })
    expect(plan.permission).toEqual({
      '*': 'deny',
      read_file: 'allow',
      list_dir: 'allow',
      glob: 'allow',
      grep: 'allow',
      web_fetch: 'allow',
      todo: 'allow',
      question: 'allow',
      task: 'allow',
      plan_exit: 'allow',
      skill: 'allow',
    })
    expect(plan.prompt).toContain('plan_exit')
  })

  it('general is an inspectable subagent; explore is read-only', () => {
    expect(byName.get('general')).toMatchObject({ mode: 'subagent', permission: { '*': 'allow' }, maxSteps: 20, inspectable: true })
    expect(byName.get('explore')).toMatchObject({
      mode: 'subagent',
      maxSteps: 15,
      inspectable: false,
      permission: { '*': 'deny', grep: 'allow', glob: 'allow', list_dir: 'allow', read_file: 'allow', web_fetch: 'allow', web_search: 'allow' },
    })
    expect(Object.keys(byName.get('explore')!.permission)[0]).toBe('*')
  })

  it('title, summary and compaction are hidden, tool-less, single-step helpers', () => {
    const caps = { title: 64, summary: 1024, compaction: 2048 }
    for (const [name, maxOutputTokens] of Object.entries(caps)) {
      expect(byName.get(name)).toMatchObject({
        mode: 'subagent',
        hidden: true,
        permission: { '*': 'deny' },
        temperature: 0.2,
        maxOutputTokens,
        inspectable: false,
        caller: 'user',
        maxSteps: 1,
      })
    }
    // They read their input as data, wrapped in the tag their prompt names (see Subagents.runHelper).
    expect(byName.get('title')!.prompt).toContain('the message inside <message>')
    expect(byName.get('title')!.prompt).toContain('Reply with the title only: 3–6 words')
    for (const name of ['summary', 'compaction']) expect(byName.get(name)!.prompt).toContain('inside <conversation>')
    expect(byName.get('summary')!.prompt.match(/^## /gm)).toHaveLength(4)
    expect(byName.get('compaction')!.prompt).toMatch(/original request.*file paths, decisions.*open tasks/s)
  })

  it('cannot be changed by a caller that mutates what it was given', () => {
    expect(() => {
      ;(byName.get('build')!.permission as Record<string, string>).bash = 'deny'
    }).toThrow(TypeError)
  })

  it('resources/agents holds an identical, loadable copy of each', () => {
    const files = fs.readdirSync(RESOURCES).filter((f) => f.endsWith('.md'))
    expect(files.sort()).toEqual(BUILTIN_AGENTS.map((a) => `${a.name}.md`).sort())
    for (const a of BUILTIN_AGENTS) {
      const file = `${RESOURCES}${a.name}.md`
      const r = parseManifest(file, fs.readFileSync(file, 'utf8'), 'user')
      if ('errors' in r) throw new Error(JSON.stringify(r.errors))
      expect({ ...r.agent, source: a.source }).toEqual(a)
      expect(Object.keys(r.agent.permission)).toEqual(Object.keys(a.permission))
    }
  })
})

describe('agent filters', () => {
  it('the picker shows primary/all agents that are not hidden', () => {
    expect(pickerAgents(BUILTIN_AGENTS).map((a) => a.name)).toEqual(['build', 'plan'])
    const extra = { ...BUILTIN_AGENTS[2], name: 'both', mode: 'all' as const }
    const hiddenAll = { ...extra, name: 'secret', hidden: true }
    expect(pickerAgents([...BUILTIN_AGENTS, extra, hiddenAll]).map((a) => a.name)).toEqual(['build', 'plan', 'both'])
  })

  it('task can call subagent/all agents, hidden ones included, never the host\'s helpers', () => {
    expect(callableSubagents(BUILTIN_AGENTS).map((a) => a.name)).toEqual(['general', 'explore'])
    // A person's own file named like a helper overrides the helper; it is still not offered to models.
    const own = { ...BUILTIN_AGENTS[2], name: 'summary', hidden: false }
    expect(callableSubagents([own]).map((a) => a.name)).toEqual([])
    const extra = { ...BUILTIN_AGENTS[0], name: 'both', mode: 'all' as const }
    expect(callableSubagents([extra]).map((a) => a.name)).toEqual(['both'])
  })
})
