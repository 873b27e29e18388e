import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BUILTIN_TOOLS } from './builtin-tools'
import { runTool } from './run-tool'
import { makeContext, type TestContext } from './testing/test-context'
import type { EditorFiles, PermissionAsk } from './tool'

/**
 * File tools with an editor driving the conversation (`agentry acp`): reads see its buffers, writes of existing files
 * go to it, new files are created on disk; the permission gate and the checked real path stay in charge.
 */
const contexts: TestContext[] = []
afterEach(() => contexts.splice(0).forEach((c) => c.cleanup()))
const tool = (name: string) => BUILTIN_TOOLS.find((t) => t.name === name)!

type Offer = 'none' | 'read' | 'write' | 'both'
const BUFFER = 'line in the editor buffer\n'

function setup(offer: Offer, o: { deny?: (ask: PermissionAsk) => string | null } = {}) {
  const ctx = makeContext({ files: { 'a.txt': 'line on disk\n', 'bin.dat': Buffer.from([0, 1, 2, 0, 255]) }, deny: o.deny })
  contexts.push(ctx)
  const reads: string[] = []
  const writes: { path: string; content: string }[] = []
  const files: EditorFiles = {}
  if (offer === 'read' || offer === 'both') {
    files.readText = async (p) => {
      reads.push(p)
      return BUFFER
    }
  }
  if (offer === 'write' || offer === 'both') files.writeText = async (p, content) => void writes.push({ path: p, content })
  const withEditor: TestContext = { ...ctx, editorFiles: offer === 'none' ? undefined : files }
  return { ctx: withEditor, reads, writes, disk: (rel: string) => fs.readFileSync(path.join(ctx.workdir, rel), 'utf8') }
}

const CASES: [offer: Offer, op: string, readsFromEditor: boolean, writesToEditor: boolean][] = []
for (const offer of ['none', 'read', 'write', 'both'] as const) {
  const reads = offer === 'read' || offer === 'both'
  const writes = offer === 'write' || offer === 'both'
  CASES.push([offer, 'read_file', reads, false], [offer, 'edit_file', reads, writes], [offer, 'write_file (existing)', reads, writes], [offer, 'write_file (new)', false, false])
}

describe.each(CASES)('editor offers %s: %s', (offer, op, readsFromEditor, writesToEditor) => {
  it(`reads ${readsFromEditor ? 'the buffer' : 'the disk'}, writes ${writesToEditor ? 'to the editor' : 'to disk'}`, async () => {
    const { ctx, reads, writes, disk } = setup(offer)
    const abs = (rel: string) => path.join(ctx.workdir, rel)
    if (op === 'read_file') {
      const r = await runTool(tool('read_file'), { path: 'a.txt' }, ctx)
      expect(r.output).toContain(`line ${readsFromEditor ? 'in the editor buffer' : 'on disk'}`)
    } else if (op === 'edit_file') {
      const old = readsFromEditor ? 'in the editor buffer' : 'on disk'
      const r = await runTool(tool('edit_file'), { path: 'a.txt', old_string: old, new_string: 'edited' }, ctx)
      expect(r.ok, r.output).toBe(true)
      expect(ctx.asks[0].display?.diff).toContain(`-line ${old}`)
      if (writesToEditor) expect(writes).toEqual([{ path: abs('a.txt'), content: 'line edited\n' }])
      expect(disk('a.txt')).toBe(writesToEditor ? 'line on disk\n' : 'line edited\n')
    } else if (op === 'write_file (existing)') {
      const r = await runTool(tool('write_file'), { path: 'a.txt', content: 'replaced\n' }, ctx)
      expect(r.ok, r.output).toBe(true)
      expect(ctx.asks[0].display?.diff).toContain(`-line ${readsFromEditor ? 'in the editor buffer' : 'on disk'}`)
      if (writesToEditor) expect(writes).toEqual([{ path: abs('a.txt'), content: 'replaced\n' }])
      expect(disk('a.txt')).toBe(writesToEditor ? 'line on disk\n' : 'replaced\n')
      expect(r.output).toContain(writesToEditor ? '(in the editor)' : 'Overwrote a.txt')
    } else {
      const r = await runTool(tool('write_file'), { path: 'sub/new.txt', content: 'fresh\n' }, ctx)
      expect(r.ok, r.output).toBe(true)
      expect(disk('sub/new.txt')).toBe('fresh\n')
    }
    expect(reads.length > 0).toBe(readsFromEditor)
    if (!writesToEditor) expect(writes).toEqual([])
  })
})

describe('the gate and the checked path stay in charge', () => {
  it('a denied read never reaches the editor', async () => {
    const { ctx, reads } = setup('both', { deny: () => 'denied by a rule' })
    const r = await runTool(tool('read_file'), { path: 'a.txt' }, ctx)
    expect(r).toMatchObject({ ok: false })
    expect(reads).toEqual([])
  })

  it('a binary file is refused before the editor is asked', async () => {
    const { ctx, reads } = setup('both')
    const r = await runTool(tool('read_file'), { path: 'bin.dat' }, ctx)
    expect(r.output).toMatch(/bin\.dat looks like a binary file/)
    expect(reads).toEqual([])
  })

  it.each(['read_file', 'edit_file'])('%s: a link swapped in after the check is refused, the editor is not asked again', async (name) => {
    let swapped = false
    let readsBefore = -1
    const outside = makeContext({ files: { 'secret.txt': 'secret in the editor\n' } })
    contexts.push(outside)
    const { ctx, reads, writes } = setup('both', {
      deny: () => {
        // Between the permission check and the use: a.txt becomes a link to a file outside the workspace.
        if (!swapped) {
          swapped = true
          readsBefore = reads.length // edit_file's approval diff was read before the check, from the checked file
          fs.rmSync(path.join(ctxDir(), 'a.txt'))
          fs.symlinkSync(path.join(outside.workdir, 'secret.txt'), path.join(ctxDir(), 'a.txt'))
        }
        return null
      },
    })
    const ctxDir = () => ctx.workdir
    const input = name === 'read_file' ? { path: 'a.txt' } : { path: 'a.txt', old_string: 'line', new_string: 'x' }
    const r = await runTool(tool(name), input, ctx)
    expect(r.ok).toBe(false)
    expect(r.output).toMatch(/a\.txt changed during the call/)
    expect(reads).toHaveLength(readsBefore)
    expect(writes).toEqual([])
  })

  it('an editor that fails is named in the error', async () => {
    const { ctx } = setup('read')
    ctx.editorFiles = { readText: async () => Promise.reject(new Error('buffer is locked')) }
    const r = await runTool(tool('read_file'), { path: 'a.txt' }, ctx)
    expect(r).toMatchObject({ ok: false })
    expect(r.output).toContain('The editor could not read a.txt: buffer is locked')
  })
})
