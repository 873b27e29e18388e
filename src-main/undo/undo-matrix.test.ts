import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../testing/harness'

/**
 * Checkpoints × the ways subagents run (issue 24 in the combination matrix): the mode of the call (blocking, two in
 * parallel, background — whose writes may land after the root's turn ended), the depth of the writer (a child, a
 * grandchild below a blocking lead) and how the writer ends (it finishes, or its model fails after the write). In
 * every case the file is listed under the writer's agent path, undo takes it back and redo puts it back.
 */
type Mode = 'blocking' | 'parallel' | 'background'
type Outcome = 'completed' | 'model-error'
const MODES: Mode[] = ['blocking', 'parallel', 'background']
const DEPTHS = [1, 2] as const
const OUTCOMES: Outcome[] = ['completed', 'model-error']
const CASES = MODES.flatMap((mode) => DEPTHS.flatMap((depth) => OUTCOMES.map((outcome, i) => ({ id: `k${MODES.indexOf(mode)}${depth}${i}`, mode, depth, outcome }))))

type Case = (typeof CASES)[number]
const files = (c: Case) => (c.mode === 'parallel' ? [`${c.id}-a.txt`, `${c.id}-b.txt`] : [`${c.id}-a.txt`])
const call = (agent: string, prompt: string, background: boolean) => ({ name: 'task', input: { subagent_type: agent, description: prompt, prompt, ...(background ? { background: true } : {}) } })

function script(): Record<string, unknown> {
  const build: unknown[] = []
  const lead: unknown[] = []
  const worker: unknown[] = []
  for (const c of CASES) {
    const writer = c.depth === 1 ? 'worker' : 'lead'
    const calls = files(c).map((f) => call(writer, `${c.depth === 1 ? 'write' : 'lead'} ${f}`, c.mode === 'background'))
    build.push({ match: `case ${c.id}`, step: 1, tools: calls })
    for (const f of files(c)) {
      if (c.depth === 2) lead.push({ match: `lead ${f}`, step: 1, tools: [call('worker', `write ${f}`, false)] }, { match: `lead ${f}`, step: 2, text: 'lead done' })
      worker.push({ match: `write ${f}`, step: 1, tools: [{ name: 'write_file', input: { path: f, content: `${f}\n` } }] })
      worker.push(c.outcome === 'completed' ? { match: `write ${f}`, step: 2, text: 'written' } : { match: `write ${f}`, step: 2, error: { status: 400, message: 'the model failed' } })
    }
  }
  return { agents: { build: [...build, { text: 'done', repeat: true }], lead, worker, '*': [{ text: 'title', repeat: true }] } }
}

let h: Harness
beforeAll(async () => {
  h = await createHarness({
    script: script(),
    headlessRun: { yes: true, allow: [] },
    agents: { lead: { mode: 'subagent', inspectable: true }, worker: { mode: 'subagent' } },
  })
}, 60_000)
afterAll(() => h?.close())

describe.each(CASES)('checkpoints: $mode call, writer at depth $depth, writer $outcome ($id)', (c) => {
  it('lists the file under the writer’s agent path; undo takes it back; redo puts it back', async () => {
    const { sessionId } = await h.run(`case ${c.id}`)
    const on = (f: string) => fs.existsSync(path.join(h.workdir, f))
    for (const f of files(c)) expect(on(f), f).toBe(true)
    const { turns } = await h.host.api.calls['changes.list']({ sessionId })
    const listed = turns.flatMap((t) => t.files.map((f) => [f.path, f.authors.map((a) => a.agentPath.join(' › '))]))
    const writer = c.depth === 1 ? 'build › worker' : 'build › lead › worker'
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(files(c).map((f) => [f, [writer]])))
    const undo = await h.host.api.calls['changes.undo']({ sessionId })
    expect(undo).toMatchObject({ applied: true, conflicts: [] })
    for (const f of files(c)) expect(on(f), f).toBe(false)
    const redo = await h.host.api.calls['changes.redo']({ sessionId })
    expect(redo.applied).toBe(true)
    for (const f of files(c)) expect(on(f), f).toBe(true)
  })
})
