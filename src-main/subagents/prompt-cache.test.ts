import { afterEach, describe, expect, it } from 'vitest'
import type { TaskCard } from '../../src-shared'
import { startScriptedAnthropicServer, type AnthropicRequest, type ScriptedAnthropicServer } from '../models/testing'
import { createHarness, toolParts, type Harness } from '../testing/harness'

/**
 * Cache-friendly requests, measured at a loopback Anthropic Messages API through the real provider: siblings of one
 * agent type send the same prefix, a fork repeats its parent's last request, breakpoints sit on the stable prefix,
 * and the cache reads and writes the provider reports reach the stats line, the session totals and the cost.
 */
let h: Harness | undefined
let server: ScriptedAnthropicServer | undefined
afterEach(async () => {
  await h?.close()
  await server?.close()
  h = server = undefined
})

const SIBLINGS = 16
const systemOf = (r: AnthropicRequest) => (typeof r.system === 'string' ? r.system : (r.system ?? []).map((s) => s.text).join('\n'))
const isExplore = (r: AnthropicRequest) => systemOf(r).includes('exploration agent')
const isTitle = (r: AnthropicRequest) => systemOf(r).includes('Write a title')
const hasToolResult = (r: AnthropicRequest) => JSON.stringify(r.messages.at(-1)).includes('tool_result')
const hasDirective = (r: AnthropicRequest) => JSON.stringify(r.messages).includes('<fork_directive>')
/** A request in the order the provider caches it: tools, then system, then messages. */
const cacheOrder = (r: AnthropicRequest) => JSON.stringify(r.tools ?? []) + JSON.stringify(r.system ?? '') + JSON.stringify(r.messages)

function commonPrefix(a: string, b: string): number {
  let i = 0
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++
  return i
}

async function anthropicHarness(respond: (r: AnthropicRequest) => Parameters<typeof startScriptedAnthropicServer>[0] extends (r: AnthropicRequest, i: number) => infer R ? R : never) {
  server = await startScriptedAnthropicServer((r) => (isTitle(r) ? { text: 'Cache test' } : respond(r)))
  h = await createHarness({
    config: {
      model: 'claude/claude-test',
      // 16 siblings at once: more than the fan-out that waits for the person by default.
      budgets: { fanOut: { askAboveChildren: 64 } },
      providers: { claude: { type: 'anthropic', baseURL: server.url, apiKey: 'sk-test', models: { 'claude-test': { pricing: { input: 3, output: 15 } } } } },
    },
  })
  return h
}

describe('prompt caching', () => {
  it(`${SIBLINGS} sibling children of one type send ≥ 90% of each request as a prefix already sent, with breakpoints on it`, async () => {
    const fanOut = Array.from({ length: SIBLINGS }, (_, i) => ({ name: 'task', input: { subagent_type: 'explore', description: `Part ${i}`, prompt: `survey part ${i} of the repo` } }))
    await anthropicHarness((r) => {
      if (isExplore(r)) return { text: 'surveyed' }
      if (hasToolResult(r)) return { text: 'all parts surveyed' }
      return { toolCalls: fanOut.map((t) => ({ name: t.name, input: t.input })) }
    })
    const run = await h!.run('survey everything')
    expect(toolParts(run.messages).filter((p) => (p.data.subagent as TaskCard | undefined)?.status === 'completed')).toHaveLength(SIBLINGS)
    const children = server!.requests.map((r, i) => ({ r, i })).filter(({ r }) => isExplore(r))
    expect(children).toHaveLength(SIBLINGS)
    const sent = server!.requests.map(cacheOrder)
    const ratios = children.slice(1).map(({ i }) => Math.max(...sent.slice(0, i).map((earlier) => commonPrefix(earlier, sent[i]))) / sent[i].length)
    // The first child has no sibling before it; every later one repeats at least 90% of its bytes.
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.9)
    // The breakpoint is on the system prompt (cached with the tools before it) and on the last message.
    for (const { r } of children) {
      expect(Array.isArray(r.system) && r.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' })
      expect(JSON.stringify(r.messages.at(-1))).toContain('"cache_control":{"type":"ephemeral"}')
    }
  })

  it('a fork\'s first request repeats its parent\'s last request in the cache order, breakpoint included', async () => {
    await anthropicHarness((r) => {
      if (hasDirective(r)) return { text: 'fork done' }
      if (JSON.stringify(r.messages).includes('[Automated notice, not from the user]')) return { text: 'seen' }
      const assistants = r.messages.filter((m) => m.role === 'assistant').length
      if (assistants === 0) return { toolCalls: [{ name: 'list_dir', input: {} }] }
      if (assistants === 1) return { toolCalls: [{ name: 'task', input: { subagent_type: 'fork', description: 'Fork it', prompt: 'look again' } }] }
      return { text: 'parent goes on' }
    })
    await h!.run('start')
    const requests = server!.requests.filter((r) => !isTitle(r))
    const parentLast = requests.find((r) => !hasDirective(r) && r.messages.filter((m) => m.role === 'assistant').length === 1)!
    const fork = requests.find(hasDirective)!
    const parentBytes = cacheOrder(parentLast)
    // Everything the parent sent, up to the end of its last message, is where the fork's request starts.
    expect(commonPrefix(parentBytes, cacheOrder(fork))).toBeGreaterThanOrEqual(parentBytes.length - 2)
    expect(fork.messages.slice(0, parentLast.messages.length)).toEqual(parentLast.messages)
  })

  it('cache reads and writes reach the stats line, the session totals and the cost', async () => {
    await anthropicHarness((r) => {
      if (JSON.stringify(r.messages[0]).includes('answer from the cache')) return { text: 'cached answer', usage: { input: 100, output: 10, cacheRead: 800, cacheWrite: 100 } }
      if (hasToolResult(r)) return { text: 'done', usage: { input: 50, output: 5 } }
      return { toolCalls: [{ name: 'task', input: { subagent_type: 'general', description: 'Cached', prompt: 'answer from the cache' } }], usage: { input: 50, output: 5 } }
    })
    const run = await h!.run('go')
    const part = toolParts(run.messages).find((p) => p.type === 'tool-task')!
    const card = part.data.subagent as TaskCard
    // 100 plain + 800 read + 100 written = 1000 in; priced 3 / 0.3 / 3.75 / 15 per million.
    const cost = (100 * 3 + 800 * 0.3 + 100 * 3.75 + 10 * 15) / 1_000_000
    expect(String(part.data.output)).toMatch(new RegExp(`\\nruntime [\\d.]+m?s · tokens 1000 in / 10 out · cache 800 read / 100 write · cost \\$(\\d+\\.\\d{4}) · session ${card.taskId}$`))
    expect(card.costUsd).toBeCloseTo(cost, 10)
    expect(card).toMatchObject({ tokensIn: 1000, cacheRead: 800, cacheWrite: 100 })
    const child = h!.host.store.sessions.getSession(card.taskId)!
    expect(child.usage).toMatchObject({ prompt: 1000, cacheRead: 800, cacheWrite: 100 })
    expect(child.costUsd).toBeCloseTo(cost, 10)
  })
})
