import { afterEach, describe, expect, it } from 'vitest'
import { agentOfRequest, contentText, hasToolResult, lastMessage, loopbackHarness, rolesOf, toolOf, type ChatRequest, type LoopbackHarness } from '../testing/model-requests'

/**
 * The defects of issue 22 (what a real model reads), each reproduced at a loopback server through the real provider,
 * the way a model meets them. Every test here failed on the code before the fix.
 */

let lh: LoopbackHarness | undefined
afterEach(async () => {
  await lh?.close()
  lh = undefined
})

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] })

describe('what a real model reads (issue 22)', () => {
  it('1. a background result read while the parent still runs wakes nobody: no request ends with the model\'s own message', async () => {
    lh = await loopbackHarness((r) => {
      const agent = agentOfRequest(r)
      if (agent === 'explore') return { text: 'found the config in src/config.ts' }
      const last = lastMessage(r)
      // 1: launch in the background; 2: a slow step while the child finishes; 3: the result is read, the turn ends.
      if (last.role === 'user' && !hasToolResult(r)) return call('task', { subagent_type: 'explore', description: 'Find the config', prompt: 'find the config', background: true })
      if (last.role === 'tool' && contentText(last).includes('task_id')) return { ...call('list_dir', {}), chunkDelayMs: 150 }
      return { text: 'The config is in src/config.ts.' }
    })
    await lh.h.run('where is the config?')
    const root = lh.requests().filter((r) => agentOfRequest(r) === 'build')
    for (const r of root) expect(lastMessage(r).role, rolesOf(r)).not.toBe('assistant')
    // The third request already carried the result; no fourth (a wake-up with nothing new) is sent.
    expect(root).toHaveLength(3)
    expect(JSON.stringify(root[2].messages)).toContain('found the config in src/config.ts')
  })

  it('1b. a background result that arrives while the parent is writing its answer comes after that answer, and wakes it', async () => {
    lh = await loopbackHarness((r) => {
      const agent = agentOfRequest(r)
      if (agent === 'explore') return { text: 'the config is in src/config.ts' }
      const last = lastMessage(r)
      if (last.role === 'user' && !hasToolResult(r)) return call('task', { subagent_type: 'explore', description: 'Find the config', prompt: 'find the config', background: true })
      // The answer's first token comes late: the result is stored while this request is in flight.
      if (last.role === 'tool') return { text: 'I started a search and will report when it is back.', delayMs: 600 }
      return { text: 'The search is back: the config is in src/config.ts.' }
    })
    const run = await lh.h.run('where is the config?')
    const root = lh.requests().filter((r) => agentOfRequest(r) === 'build')
    for (const r of root) expect(lastMessage(r).role, rolesOf(r)).not.toBe('assistant')
    expect(root).toHaveLength(3)
    // The second request was sent before the result existed; the third carries it last, after the answer it missed.
    expect(JSON.stringify(root[1].messages)).not.toContain('src/config.ts')
    expect(rolesOf(root[2])).toBe('s u a t a u')
    expect(contentText(lastMessage(root[2]))).toMatch(/^\[Automated notice, not from the user\] The background task "Find the config" \(explore, task_id ses_\w+\) finished\./)
    expect(run.messages.at(-1)!.parts.map((p) => p.data.text)).toEqual(['The search is back: the config is in src/config.ts.'])
  })

  it('2. the hidden helpers (title, summary, compaction) are never offered: not in the enum, the listing or an error', async () => {
    lh = await loopbackHarness((r) => {
      if (!hasToolResult(r)) return call('task', { subagent_type: 'summary', description: 'Summarize it', prompt: 'summarize' })
      return { text: 'done' }
    })
    await lh.h.run('summarize the session')
    const root = lh.requests().filter((r) => agentOfRequest(r) === 'build')
    const task = toolOf(root[0], 'task')!.function
    const enumOf = (task.parameters as { properties: { subagent_type: { enum?: string[] } } }).properties.subagent_type.enum
    for (const helper of ['title', 'summary', 'compaction']) {
      expect(enumOf).not.toContain(helper)
      expect(task.description).not.toMatch(new RegExp(`- ${helper}:`))
    }
    // The call is refused before anything runs, and the error names only agents the model may call.
    expect(lh.requests().filter((r) => agentOfRequest(r) === 'summary')).toHaveLength(0)
    const error = contentText(lastMessage(root[1]))
    expect(error).toMatch(/subagent_type: not an agent you can start here; use .* \(got "summary"\)/)
    const offered = /; use (.*?) \(got/.exec(error)?.[1]
    expect(offered, error).toBeDefined()
    expect(offered).toMatch(/explore/)
    expect(offered).not.toMatch(/\b(title|summary|compaction)\b/)
  })

  it('3. leaving out subagent_type never forks: it is required; a close miss resolves to the agent it means', async () => {
    const calls = [
      { description: 'Look around', prompt: 'look around' },
      { subagent_type: 'general-purpose', description: 'Do the work', prompt: 'general work' },
      { subagent_type: 'Explore', description: 'Look again', prompt: 'explore work' },
    ]
    lh = await loopbackHarness((r) => {
      const agent = agentOfRequest(r)
      if (agent === 'explore') return { text: 'explored' }
      if (agent === 'general') return { text: 'worked' }
      if (!hasToolResult(r)) return { toolCalls: calls.map((c) => ({ name: 'task', arguments: c })) }
      return { text: 'done' }
    })
    const run = await lh.h.run('go')
    const root = lh.requests().filter((r) => agentOfRequest(r) === 'build')
    const schema = toolOf(root[0], 'task')!.function.parameters as { required: string[]; properties: { subagent_type: { enum: string[] } } }
    expect(schema.required).toContain('subagent_type')
    expect(schema.properties.subagent_type.enum).toEqual(expect.arrayContaining(['general', 'explore', 'fork']))
    // No fork ran: no request repeats the parent's conversation with a directive.
    expect(lh.requests().some((r) => JSON.stringify(r.messages).includes('fork_directive'))).toBe(false)
    const results = root[1].messages.filter((m) => m.role === 'tool').map(contentText)
    expect(results[0]).toMatch(/subagent_type/)
    expect(results[0]).toMatch(/"fork"/)
    expect(results[0]).not.toMatch(/leave it out/)
    expect(results[1]).toMatch(/^<task_result agent="general"/)
    expect(results[2]).toMatch(/^<task_result agent="explore"/)
    expect(run.final?.finishReason).toBe('stop')
  })

  it('4. task_id alone resumes the child as the type it was (an explore child is not taken for a fork)', async () => {
    let phase = 1
    lh = await loopbackHarness((r) => {
      const agent = agentOfRequest(r)
      if (agent === 'explore') return { text: phase === 1 ? 'first look: three files' : 'second look: one more file' }
      if (!hasToolResult(r) || lastMessage(r).role === 'user') {
        if (phase === 1) return call('task', { subagent_type: 'explore', description: 'Look around', prompt: 'look around' })
        const id = /task_id="(ses_[^"]+)"/.exec(r.messages.map(contentText).join('\n'))![1]
        return call('task', { task_id: id, description: 'Look again', prompt: 'look once more' })
      }
      return { text: 'done' }
    })
    const first = await lh.h.run('look')
    phase = 2
    await lh.h.run('look again', { sessionId: first.sessionId })
    const explore = lh.requests().filter((r) => agentOfRequest(r) === 'explore')
    expect(explore, JSON.stringify(lh.requests().filter((r) => agentOfRequest(r) === 'build').map((r) => contentText(lastMessage(r))))).toHaveLength(2)
    // The resumed child sees its own earlier conversation, then the follow-up.
    expect(JSON.stringify(explore[1].messages)).toContain('first look: three files')
    expect(contentText(lastMessage(explore[1]))).toBe('look once more')
    const root = lh.requests().filter((r) => agentOfRequest(r) === 'build').at(-1)!
    expect(contentText(lastMessage(root))).toMatch(/^<task_result agent="explore"[^>]*>\nsecond look: one more file/)
  })

  it('5. under plan, the listing names the tools a child would really get (read-only), not "All tools"', async () => {
    lh = await loopbackHarness(() => ({ text: 'a plan' }))
    await lh.h.run('plan it', { agent: 'plan' })
    const plan = lh.requests().find((r) => agentOfRequest(r) === 'plan')!
    const listing = toolOf(plan, 'task')!.function.description
    const general = listing.split('\n').find((l) => l.startsWith('- general:'))!
    expect(general).not.toMatch(/All tools/)
    expect(general).toMatch(/read_file/)
    for (const tool of ['write_file', 'edit_file', 'bash']) expect(general).not.toContain(tool)
  })

  it('6. the task tool says when not to delegate, what the result is for, and how to brief and check a subagent', async () => {
    lh = await loopbackHarness(() => ({ text: 'ok' }))
    await lh.h.run('hello')
    const description = toolOf(lh.requests().find((r) => agentOfRequest(r) === 'build')!, 'task')!.function.description
    // Not for small work, never twice.
    expect(description).toMatch(/Not for what takes you a few tool calls/)
    expect(description).toMatch(/Never redo work you delegated/)
    // The result is the model's to relay; the brief says code or research and what to return; claims are checked.
    expect(description).toMatch(/The user does not see its result/)
    expect(description).toMatch(/whether to change code or only research, and what to return/)
    expect(description).toMatch(/Check changes a subagent reports before you call them done/)
    // Parallel writers are kept apart.
    expect(description).toMatch(/must not share files: split the files between them, or use isolation "worktree"/)
  })

  it('7. a background launch says the result comes by itself (no polling, no guessing); the notice says which task, that it is automated, and that it failed', async () => {
    lh = await loopbackHarness((r) => {
      const agent = agentOfRequest(r)
      if (agent === 'explore') return { status: 500 }
      const last = lastMessage(r)
      if (last.role === 'user' && !hasToolResult(r)) return call('task', { subagent_type: 'explore', description: 'Survey the tests', prompt: 'survey', background: true })
      return { text: 'noted' }
    })
    await lh.h.run('survey the tests in the background')
    const root = lh.requests().filter((r) => agentOfRequest(r) === 'build')
    const launch = contentText(root[1].messages.find((m) => m.role === 'tool')!)
    expect(launch).toMatch(/^Started in the background: task_id ses_\w+ \(explore, "Survey the tests"\)\./)
    expect(launch).toMatch(/arrive by itself/)
    expect(launch).toMatch(/Do not poll for it or guess what it will say/)
    expect(launch).toMatch(/or end your turn/)
    const notice = contentText(lastMessage(root.at(-1)!))
    expect(notice).toMatch(/^\[Automated notice, not from the user\] The background task "Survey the tests" \(explore, task_id ses_\w+\) failed:\n<task_error /)
    // ANNOUNCE_SKIP is something to tell a background subagent: it sits with `background`, not in the tool's description.
    const task = toolOf(root[0], 'task')!.function
    expect(task.description).not.toContain('ANNOUNCE_SKIP')
    expect(JSON.stringify((task.parameters as { properties: { background: unknown } }).properties.background)).toContain('ANNOUNCE_SKIP')
  })
})

export type { ChatRequest }
