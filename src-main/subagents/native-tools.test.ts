import { afterEach, describe, expect, it } from 'vitest'
import type { TaskCard } from '../../src-shared'
import { startScriptedAnthropicServer, type AnthropicRequest, type ScriptedAnthropicServer } from '../models/testing'
import { createHarness, toolParts, type Harness } from '../testing/harness'

/**
 * An honest tool catalog: `web_search` exists only where the provider runs one the AI SDK exposes (Anthropic's,
 * OpenAI's), and only for runs whose rules allow it outright (the provider runs it without asking anyone). Tested
 * against a loopback Anthropic Messages API through the real provider.
 */
let h: Harness | undefined
let server: ScriptedAnthropicServer | undefined
afterEach(async () => {
  await h?.close()
  await server?.close()
  h = undefined
  server = undefined
})

const systemOf = (r: AnthropicRequest) => (typeof r.system === 'string' ? r.system : (r.system ?? []).map((s) => s.text).join('\n'))
const isExplore = (r: AnthropicRequest) => systemOf(r).includes('exploration agent')
const hasToolResult = (r: AnthropicRequest) => r.messages.some((m) => Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result'))
const lastUserText = (r: AnthropicRequest) => JSON.stringify(r.messages.filter((m) => m.role === 'user').at(-1)?.content)

async function anthropicHarness(permissions: string | undefined, taskInput: (turn: number) => Record<string, unknown>) {
  let rootTurn = 0
  server = await startScriptedAnthropicServer((req) => {
    if (systemOf(req).includes('Write a title')) return { text: 'Search test' }
    if (isExplore(req)) {
      if (lastUserText(req).includes('again')) return { text: 'Still agentry.dev.' }
      return { search: { query: 'agentry', results: [{ url: 'https://agentry.dev/', title: 'Agentry' }] }, text: 'Agentry lives at agentry.dev.' }
    }
    if (hasToolResult(req) && JSON.stringify(req.messages.at(-1)).includes('tool_result')) return { text: 'Reported.' }
    return { toolCalls: [{ name: 'task', input: taskInput(++rootTurn) }] }
  })
  h = await createHarness({
    permissions,
    config: { model: 'claude/claude-test', providers: { claude: { type: 'anthropic', baseURL: server.url, apiKey: 'sk-test' } } },
  })
  return h
}

describe('native web_search', () => {
  it('is offered and listed where the provider has one and the rules allow it; the provider runs it', async () => {
    await anthropicHarness('{ "*": "allow" }', () => ({ subagent_type: 'explore', description: 'Search the web', prompt: 'find agentry' }))
    const first = await h!.run('search the web')
    const root = server!.requests.find((r) => r.tools?.some((t) => t.name === 'task'))!
    expect(root.tools!.find((t) => t.name === 'task')!.description).toMatch(/- explore: .* Tools: read_file, list_dir, glob, grep, web_fetch, web_search\./)
    const explore = server!.requests.find(isExplore)!
    expect(explore.tools!.find((t) => t.name === 'web_search')).toMatchObject({ type: 'web_search_20250305', max_uses: 5 })
    expect(systemOf(explore)).toMatch(/^- web_search: Search the web/m)

    // The provider ran the search; the nested transcript shows it, and the child's answer reached the parent.
    const card = toolParts(first.messages)[0].data.subagent as TaskCard
    const search = toolParts(card.transcript!).find((p) => p.type === 'tool-web_search')!
    expect(search).toMatchObject({ toolState: 'output-available', data: { input: { query: 'agentry' }, output: 'Agentry — https://agentry.dev/', providerExecuted: true } })
    expect(String(toolParts(first.messages)[0].data.output)).toContain('Agentry lives at agentry.dev.')

  })

  it('a resumed child replays the provider-run search to the provider', async () => {
    let taskId = ''
    await anthropicHarness('{ "*": "allow" }', (turn) =>
      turn === 1 ? { subagent_type: 'explore', description: 'Search the web', prompt: 'find agentry' } : { subagent_type: 'explore', description: 'Search again', prompt: 'again', task_id: taskId },
    )
    const first = await h!.run('search the web')
    taskId = (toolParts(first.messages)[0].data.subagent as TaskCard).taskId
    await h!.run('ask it again', { sessionId: first.sessionId })
    const resumed = server!.requests.filter(isExplore).at(-1)!
    const assistant = resumed.messages.find((m) => m.role === 'assistant')!
    const types = (assistant.content as { type: string }[]).map((c) => c.type)
    expect(types).toEqual(['server_tool_use', 'web_search_tool_result', 'text'])
    expect(assistant.content[1]).toMatchObject({ content: [{ type: 'web_search_result', url: 'https://agentry.dev/', title: 'Agentry', encrypted_content: 'enc' }] })
  })

  it('is neither offered nor listed when the rules would ask (the provider cannot ask anyone)', async () => {
    await anthropicHarness(undefined, () => ({ subagent_type: 'explore', description: 'Search the web', prompt: 'find agentry' }))
    await h!.run('search the web')
    const root = server!.requests.find((r) => r.tools?.some((t) => t.name === 'task'))!
    expect(root.tools!.map((t) => t.name)).not.toContain('web_search')
    expect(root.tools!.find((t) => t.name === 'task')!.description).toMatch(/- explore: .* Tools: read_file, list_dir, glob, grep, web_fetch\.\n/)
    const explore = server!.requests.find(isExplore)!
    expect((explore.tools ?? []).map((t) => t.name)).not.toContain('web_search')
    expect(systemOf(explore)).not.toContain('web_search')
  })
})
