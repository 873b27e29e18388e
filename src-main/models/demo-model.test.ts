import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { describe, expect, it } from 'vitest'
import { Config } from '../../src-shared'
import { createFileKeyStore, DEMO_LABEL, resolveModel } from './index'
import { afterTools, readAll, tempDir, textOf, toolCallsOf, tools, userPrompt } from './testing/test-support'

function demo(agentName: string): LanguageModelV4 {
  const dir = tempDir()
  return resolveModel({ provider: 'demo', model: 'demo' }, { config: Config.parse({}), configDir: dir, keys: createFileKeyStore(dir), env: {}, agentName })
}

async function reply(agentName: string, options: LanguageModelV4CallOptions) {
  const parts = await readAll((await demo(agentName).doStream(options)).stream)
  const finish = parts.find((p) => p.type === 'finish')
  if (finish?.type !== 'finish') throw new Error('no finish part')
  return { text: textOf(parts), calls: toolCallsOf(parts), finish }
}

describe('demo model', () => {
  it('a primary agent fans out to explore and general in parallel', async () => {
    const r = await reply('build', { prompt: userPrompt('What is this project?'), tools: tools('task', 'read_file') })
    expect(r.text.startsWith(DEMO_LABEL)).toBe(true)
    expect(r.calls.map((c) => c.name)).toEqual(['task', 'task'])
    expect(r.calls.map((c) => c.input)).toEqual([
      { subagent_type: 'explore', description: 'Survey the workspace', prompt: 'List the top-level files and summarize what this project is.' },
      { subagent_type: 'general', description: 'Check the build setup', prompt: 'Look for a package.json or Makefile and report how to build.' },
    ])
    expect(new Set(r.calls.map((c) => c.id)).size).toBe(2)
    expect(r.finish.finishReason.unified).toBe('tool-calls')
    expect(r.finish.usage.inputTokens.total).toBeGreaterThan(10)
    expect(r.finish.usage.outputTokens.total).toBeGreaterThan(10)
  })

  it('skips the fan-out when task is not offered', async () => {
    const r = await reply('plan', { prompt: userPrompt('hi'), tools: tools('read_file') })
    expect(r.calls).toEqual([])
    expect(r.text).toContain('providers:')
  })

  it('after the subagents report, summarizes their results and explains how to add a provider', async () => {
    const prompt = afterTools('What is this project?', [
      { id: 'a', name: 'task', input: { subagent_type: 'explore', description: 'Survey the workspace' }, output: '<task_result>README.md, src/, package.json</task_result>' },
      { id: 'b', name: 'task', input: { subagent_type: 'general', description: 'Check the build setup' }, output: 'Run npm install then npm run build.' },
    ])
    const r = await reply('build', { prompt, tools: tools('task') })
    expect(r.text.startsWith(DEMO_LABEL)).toBe(true)
    expect(r.calls).toEqual([])
    expect(r.text).toContain('**explore** (Survey the workspace) reported:')
    expect(r.text).toContain('> <task_result>README.md, src/, package.json</task_result>')
    expect(r.text).toContain('Run npm install then npm run build.')
    expect(r.text).toContain('ANTHROPIC_API_KEY')
    expect(r.finish.finishReason.unified).toBe('stop')
  })

  it('explore lists the workspace, then summarizes the listing', async () => {
    const step1 = await reply('explore', { prompt: userPrompt('List the top-level files'), tools: tools('list_dir', 'glob') })
    expect(step1.calls.map((c) => [c.name, c.input])).toEqual([['list_dir', { path: '.' }]])
    const step2 = await reply('explore', {
      prompt: afterTools('List the top-level files', [{ id: 'x', name: 'list_dir', input: { path: '.' }, output: 'README.md\npackage.json\nsrc/' }]),
      tools: tools('list_dir'),
    })
    expect(step2.calls).toEqual([])
    expect(step2.text).toContain('3 top-level entries')
    expect(step2.text).toContain('> package.json')
  })

  it('general globs for build files and asks for ls; a denied ls is answered gracefully', async () => {
    const step1 = await reply('general', { prompt: userPrompt('Look for a package.json'), tools: tools('glob', 'bash') })
    expect(step1.calls.map((c) => [c.name, c.input])).toEqual([
      ['glob', { pattern: '**/{package.json,Makefile}' }],
      ['bash', { command: 'ls' }],
    ])
    const denied = await reply('general', {
      prompt: afterTools('Look for a package.json', [
        { id: 'g', name: 'glob', input: {}, output: 'package.json' },
        { id: 'b', name: 'bash', input: { command: 'ls' }, output: 'not allowed in headless mode', denied: true },
      ]),
    })
    expect(denied.text).toContain('was not run (denied: not allowed in headless mode)')
    expect(denied.text).toContain('npm install')
    const allowed = await reply('general', {
      prompt: afterTools('Look for a package.json', [
        { id: 'g', name: 'glob', input: {}, output: '' },
        { id: 'b', name: 'bash', input: { command: 'ls' }, output: 'Makefile\nsrc' },
      ]),
    })
    expect(allowed.text).toContain('> Makefile')
    expect(allowed.text).toContain('no package.json or Makefile')
  })

  it('title answers with 3–6 words from the first user message', async () => {
    const long = await reply('title', { prompt: userPrompt('please refactor the auth module and add tests for it') })
    const words = long.text.slice(DEMO_LABEL.length).trim().split(' ')
    expect(words).toEqual(['Please', 'refactor', 'the', 'auth', 'module', 'and'])
    const short = await reply('title', { prompt: userPrompt('hi!') })
    expect(short.text).toBe(`${DEMO_LABEL} Quick chat about hi`)
    const clause = await reply('title', { prompt: userPrompt('Show me how you work: explore this project with subagents') })
    expect(clause.text).toBe(`${DEMO_LABEL} Show me how you work`)
  })

  it('summary and compaction answer with bullets of the conversation', async () => {
    for (const agent of ['summary', 'compaction']) {
      const r = await reply(agent, { prompt: afterTools('fix the bug in parser.ts', [{ id: 'r', name: 'read_file', input: {}, output: 'const x = 1' }]) })
      expect(r.text).toContain('- user: fix the bug in parser.ts')
      expect(r.text).toContain('- tool: const x = 1')
    }
  })
})
