import fs from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { BUILTIN_TOOLS } from './builtin-tools'
import { runTool } from './run-tool'
import { makeContext, type TestContext } from './testing/test-context'
import { defineTool, ToolError } from './tool'
import { loadShellGrammar } from '../permissions'

beforeAll(() => loadShellGrammar())

const contexts: TestContext[] = []
function ctxFor(opts: Parameters<typeof makeContext>[0] = {}) {
  const ctx = makeContext(opts)
  contexts.push(ctx)
  return ctx
}
afterEach(() => contexts.splice(0).forEach((c) => c.cleanup()))

const tool = (name: string) => BUILTIN_TOOLS.find((t) => t.name === name)!

const echo = defineTool({
  name: 'echo',
  description: 'echo',
  parameters: z.object({ text: z.string(), times: z.number().int().min(1).optional() }),
  permission: (input) => ({ kind: 'other', subjects: [input.text] }),
  display: (input) => ({ summary: `echo ${input.text}` }),
  async execute(input) {
    return { output: input.text.repeat(input.times ?? 1), metadata: { echoed: true } }
  },
})

describe('runTool', () => {
  it('turns a schema failure into a message naming the bad field and the shape to send', async () => {
    const ctx = ctxFor()
    const r = await runTool(tool('edit_file'), { path: 'a.txt', new_string: 'x' }, ctx)
    expect(r.ok).toBe(false)
    expect(r.output).toBe('Invalid arguments for edit_file: old_string: required. Send {path, old_string, new_string, replace_all?}.')
    expect(ctx.asks).toEqual([])
  })

  it('reports every bad field, and a non-object input, without throwing', async () => {
    const ctx = ctxFor()
    const many = await runTool(echo, { text: 3, times: 0 }, ctx)
    expect(many.output).toBe('Invalid arguments for echo: text: must be a string, not the number 3; times: must be at least 1 (got 0). Send {text, times?}.')
    const notObject = await runTool(echo, 'hello', ctx)
    expect(notObject).toMatchObject({ ok: false, output: 'Invalid arguments for echo: arguments: must be a mapping (key: value), not the text "hello". Send {text, times?}.' })
  })

  it('asks the gate with the permission subject and display, then runs', async () => {
    const ctx = ctxFor()
    const r = await runTool(echo, { text: 'hi', times: 2 }, ctx)
    expect(r).toMatchObject({ ok: true, output: 'hihi', metadata: { echoed: true } })
    expect(r.durationMs).toBeGreaterThanOrEqual(0)
    expect(ctx.asks).toEqual([{ ask: { kind: 'other', subjects: ['hi'] }, display: { summary: 'echo hi' } }])
  })

  it('returns the denial message and does not execute', async () => {
    const ctx = ctxFor({ deny: () => 'Denied by rule bash: "rm *". Do not delete files.' })
    const r = await runTool(tool('write_file'), { path: 'x.txt', content: 'data' }, ctx)
    expect(r).toMatchObject({ ok: false, output: 'Denied by rule bash: "rm *". Do not delete files.' })
    expect(fs.existsSync(`${ctx.workdir}/x.txt`)).toBe(false)
  })

  it('skips the gate when the tool needs no permission', async () => {
    const ctx = ctxFor()
    const r = await runTool(tool('todo'), { todos: [] }, ctx)
    expect(r.ok).toBe(true)
    expect(ctx.asks).toEqual([])
  })

  it('maps thrown errors to ok:false with their message', async () => {
    const failing = defineTool({ ...echo, name: 'fails', execute: async () => Promise.reject(new ToolError('Nope: try again with a shorter text.')) })
    const r = await runTool(failing, { text: 'x' }, ctxFor())
    expect(r).toMatchObject({ ok: false, output: 'Nope: try again with a shorter text.' })
    const crashing = defineTool({ ...echo, name: 'crashes', permission: () => { throw new Error('bad url') } })
    expect(await runTool(crashing, { text: 'x' }, ctxFor())).toMatchObject({ ok: false, output: 'bad url' })
  })

  it('truncates long output, saves the full text and says where', async () => {
    const ctx = ctxFor()
    const r = await runTool(echo, { text: 'abcdefghij', times: 4_000 }, ctx)
    expect(r.ok).toBe(true)
    expect(r.output.length).toBeLessThan(30_300)
    expect(r.output).toContain(`… [truncated: 10000 more chars. The full output is saved as ${r.metadata?.fullOutputRef as string}: `)
    const saved = r.metadata?.fullOutputPath as string
    expect(saved.startsWith(ctx.overflowDir)).toBe(true)
    expect(fs.readFileSync(saved, 'utf8')).toHaveLength(40_000)
    expect(r.metadata).toMatchObject({ truncated: true, echoed: true })
  })

  it('does not run anything once aborted', async () => {
    const ctx = ctxFor()
    ctx.controller.abort()
    const r = await runTool(tool('write_file'), { path: 'x.txt', content: 'y' }, ctx)
    expect(r).toMatchObject({ ok: false, metadata: { aborted: true } })
    expect(r.output).toMatch(/^Aborted: write_file was cancelled/)
    expect(fs.existsSync(`${ctx.workdir}/x.txt`)).toBe(false)
    expect(ctx.asks).toEqual([])
  })

  it('returns on abort even when a tool ignores the signal', async () => {
    const stuck = defineTool({ ...echo, name: 'stuck', execute: () => new Promise(() => {}) })
    const ctx = ctxFor()
    const started = Date.now()
    setTimeout(() => ctx.controller.abort(), 50)
    const r = await runTool(stuck, { text: 'x' }, ctx)
    expect(r).toMatchObject({ ok: false, metadata: { aborted: true } })
    expect(Date.now() - started).toBeLessThan(15_000) // the tool never settles: only the abort grace ends the wait
  })
})
