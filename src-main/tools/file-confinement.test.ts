import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadShellGrammar } from '../permissions'
import { BUILTIN_TOOLS } from './builtin-tools'
import { writeConfinedByPath } from './confined-fs'
import { runTool } from './run-tool'
import { makeContext, makeTempDir, type TestContext } from './testing/test-context'
import type { PermissionAsk } from './tool'
import { truncateOutput } from './truncate'

// bash's permission check parses the line (its redirect targets are writes); the host loads the grammar once.
beforeAll(() => loadShellGrammar())

// The escapes of issue 8 ("the file tools have holes") against real files, links and processes.

const contexts: TestContext[] = []
const dirs: string[] = []
const children: ChildProcess[] = []
/** Kills the loop's whole process group (bash and a running mv/ln) and waits until it is gone. */
async function stopLoops(): Promise<void> {
  await Promise.all(
    children.splice(0).map(async (c) => {
      if (c.exitCode !== null || c.signalCode !== null) return
      const exited = new Promise((resolve) => c.once('exit', resolve))
      process.kill(-c.pid!, 'SIGKILL')
      await exited
    }),
  )
}
afterEach(async () => {
  await stopLoops()
  contexts.splice(0).forEach((c) => c.cleanup())
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }))
})
const tool = (name: string) => BUILTIN_TOOLS.find((t) => t.name === name)!
/** As the runtime does under the default rules: a path outside the workspace is denied. */
const denyOutside = (ask: PermissionAsk) => (ask.outsideWorkspace ? 'Path is outside the workspace.' : null)
function setup(files: Record<string, string> = {}) {
  const ctx = makeContext({ deny: denyOutside, files })
  contexts.push(ctx)
  return ctx
}
function outsideDir(): string {
  const d = makeTempDir('agentry-outside-')
  dirs.push(d)
  return d
}
/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory()).map((e) => path.join(e.parentPath, e.name))
}
/** A real bash loop swapping `d` for a symlink to `target` and back, as fast as it can, until killed. */
function swapLoop(workdir: string, target: string): ChildProcess {
  const loop = `cd "${workdir}"; while :; do mv d d.real 2>/dev/null; ln -s "${target}" d 2>/dev/null; rm -f d 2>/dev/null; mv d.real d 2>/dev/null; done`
  const child = spawn('bash', ['-c', loop], { stdio: 'ignore', detached: true })
  children.push(child)
  return child
}

describe('writes cannot be redirected by a path swapped during the call', () => {
  const ITERATIONS = 150

  it.each([
    ['write_file', (i: number) => ({ path: 'd/f.txt', content: `write ${i}\n` })],
    ['edit_file', (i: number) => ({ path: 'd/f.txt', old_string: 'v', new_string: `v${i}` })],
  ] as const)('%s: with a parallel mv/ln loop, no write lands outside in %#', async (name, input) => {
    const outside = outsideDir()
    // The outside twin holds the same file, so an edit through a swapped path would find its old_string there too.
    fs.writeFileSync(path.join(outside, 'f.txt'), 'v\n')
    const ctx = setup({ 'd/f.txt': 'v\n' })
    swapLoop(ctx.workdir, outside)
    const outcomes = { ok: 0, failed: 0 }
    for (let i = 0; i < ITERATIONS; i++) {
      if (name === 'edit_file') {
        // Each edit needs its old_string back: restore the file wherever the real folder currently is.
        for (const d of ['d', 'd.real']) {
          try {
            // O_NOFOLLOW-free but checked: only a real folder (not the link to outside) gets the file back.
            if (!fs.lstatSync(path.join(ctx.workdir, d)).isSymbolicLink()) fs.writeFileSync(path.join(ctx.workdir, d, 'f.txt'), 'v\n')
          } catch (e) {
            // The loop moved the folder away meanwhile; the next iteration restores it.
            if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
          }
        }
      }
      const r = await runTool(tool(name), input(i), ctx)
      outcomes[r.ok ? 'ok' : 'failed']++
    }
    await stopLoops()
    expect(filesUnder(outside)).toEqual([path.join(outside, 'f.txt')])
    expect(fs.readFileSync(path.join(outside, 'f.txt'), 'utf8')).toBe('v\n')
    // The loop really raced the calls: some went through (inside the workspace), some met a swapped path.
    expect(outcomes.ok).toBeGreaterThan(0)
    expect(outcomes.failed).toBeGreaterThan(0)
  })

  it('a link swapped in while the approval is pending makes the write fail instead of following it', async () => {
    const outside = outsideDir()
    const ctx = setup({ 'd/f.txt': 'old\n' })
    const swapping = {
      ...ctx,
      authorize: async (given: PermissionAsk | PermissionAsk[]) => {
        // The person is still looking at the dialog when bash swaps the folder.
        fs.renameSync(path.join(ctx.workdir, 'd'), path.join(ctx.workdir, 'd.real'))
        fs.symlinkSync(outside, path.join(ctx.workdir, 'd'))
        return ctx.authorize(given)
      },
    }
    const r = await runTool(tool('write_file'), { path: 'd/f.txt', content: 'new\n' }, swapping)
    expect(r).toMatchObject({ ok: false, output: expect.stringContaining('d/f.txt changed during the call') })
    expect(filesUnder(outside)).toEqual([])
    expect(fs.readFileSync(path.join(ctx.workdir, 'd.real', 'f.txt'), 'utf8')).toBe('old\n')
  })

  it('without descriptor paths (non-Linux), a swapped folder still fails the write and no content lands outside', async () => {
    const outside = outsideDir()
    const ctx = setup({ 'd/f.txt': 'old\n' })
    const abs = path.join(ctx.workdir, 'd', 'f.txt')
    await writeConfinedByPath(abs, 'first\n', 'd/f.txt')
    expect(fs.readFileSync(abs, 'utf8')).toBe('first\n')
    fs.renameSync(path.join(ctx.workdir, 'd'), path.join(ctx.workdir, 'd.real'))
    fs.symlinkSync(outside, path.join(ctx.workdir, 'd'))
    await expect(writeConfinedByPath(abs, 'second\n', 'd/f.txt')).rejects.toThrow('d/f.txt changed during the call')
    expect(filesUnder(outside).filter((f) => fs.statSync(f).size > 0)).toEqual([])
  })
})

describe('hard links', () => {
  it.each([
    ['write_file', { path: 'hard-link', content: 'changed\n' }],
    ['edit_file', { path: 'hard-link', old_string: 'original', new_string: 'changed' }],
  ] as const)('%s through a hard link to a file outside leaves the outside file unchanged', async (name, input) => {
    const outside = outsideDir()
    const outsideFile = path.join(outside, 'outside.txt')
    fs.writeFileSync(outsideFile, 'original\n')
    const ctx = setup()
    fs.linkSync(outsideFile, path.join(ctx.workdir, 'hard-link'))
    const r = await runTool(tool(name), input, ctx)
    expect(r.ok).toBe(true)
    expect(r.output).toContain('It had 2 hard links: this path now has its own copy, and the other 1 link keep the old content.')
    expect(fs.readFileSync(outsideFile, 'utf8')).toBe('original\n')
    expect(fs.readFileSync(path.join(ctx.workdir, 'hard-link'), 'utf8')).toBe('changed\n')
    expect(fs.statSync(outsideFile).nlink).toBe(1)
  })

  it('keeps the permission bits of the file it replaces', async () => {
    const ctx = setup({ 'run.sh': 'echo a\n' })
    fs.chmodSync(path.join(ctx.workdir, 'run.sh'), 0o755)
    expect((await runTool(tool('write_file'), { path: 'run.sh', content: 'echo b\n' }, ctx)).ok).toBe(true)
    expect(fs.statSync(path.join(ctx.workdir, 'run.sh')).mode & 0o777).toBe(0o755)
    expect(fs.readdirSync(ctx.workdir)).toEqual(['run.sh'])
  })
})

describe('links created mid-run stay confined', () => {
  it('a symlink to /etc/passwd made by bash is read as outside (denied) by read_file', async () => {
    const ctx = setup()
    const made = await runTool(tool('bash'), { command: 'ln -s /etc/passwd x && ln -s /etc notes' }, ctx)
    expect(made.ok, made.output).toBe(true)
    for (const p of ['x', 'notes/passwd']) {
      expect(await runTool(tool('read_file'), { path: p }, ctx)).toMatchObject({ ok: false, output: 'Path is outside the workspace.' })
    }
  })

  it('a file swapped for a link while the read waits for approval is not read through the link', async () => {
    const outside = outsideDir()
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'SECRET\n')
    const ctx = setup({ 'notes.txt': 'mine\n', 'd/notes.txt': 'mine too\n' })
    const swapping = {
      ...ctx,
      authorize: async (given: PermissionAsk | PermissionAsk[]) => {
        fs.rmSync(path.join(ctx.workdir, 'notes.txt'))
        fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ctx.workdir, 'notes.txt'))
        fs.renameSync(path.join(ctx.workdir, 'd'), path.join(ctx.workdir, 'd.real'))
        fs.symlinkSync(outside, path.join(ctx.workdir, 'd'))
        fs.writeFileSync(path.join(outside, 'notes.txt'), 'SECRET\n')
        return ctx.authorize(given)
      },
    }
    for (const p of ['notes.txt', 'd/notes.txt']) {
      const r = await runTool(tool('read_file'), { path: p }, swapping)
      expect(r.ok).toBe(false)
      expect(r.output).toBe(`${p} changed during the call (a folder or file on its path was replaced, e.g. by a symbolic link); nothing was done. Check the path and try again.`)
      // Restore for the next path.
      fs.rmSync(path.join(ctx.workdir, 'notes.txt'), { force: true })
      fs.writeFileSync(path.join(ctx.workdir, 'notes.txt'), 'mine\n')
      if (fs.lstatSync(path.join(ctx.workdir, 'd')).isSymbolicLink()) {
        fs.rmSync(path.join(ctx.workdir, 'd'))
        fs.renameSync(path.join(ctx.workdir, 'd.real'), path.join(ctx.workdir, 'd'))
      }
    }
  })
})

describe('saved tool output', () => {
  function saved(ctx: TestContext, text = 'line one\nline two\n') {
    return truncateOutput(text + 'x'.repeat(50), { maxChars: 10, overflowDir: ctx.overflowDir })
  }

  it('is read back through its tool-output:// reference, under read_file rules, with paging', async () => {
    const ctx = setup()
    const cut = saved(ctx)
    expect(cut.text).toContain(`The full output is saved as ${cut.ref}: page through it with read_file, path "${cut.ref}", using offset and limit`)
    const r = await runTool(tool('read_file'), { path: cut.ref, offset: 2, limit: 1 }, ctx)
    expect(r).toMatchObject({ ok: true, output: `     2\tline two\n(lines 2-2 of 3; continue with offset 3)` })
    expect(ctx.asks.map((a) => a.ask)).toEqual([{ kind: 'path', subjects: [cut.ref], access: 'read' }])
    const denied = makeContext({ workdir: ctx.workdir, deny: (ask) => (ask.subjects[0].startsWith('tool-output://') ? 'denied by rule' : null) })
    contexts.push(denied)
    fs.cpSync(ctx.overflowDir, denied.overflowDir, { recursive: true })
    expect(await runTool(tool('read_file'), { path: cut.ref }, denied)).toMatchObject({ ok: false, output: 'denied by rule' })
  })

  it('is not readable by its absolute path, nor by another session through its reference', async () => {
    const owner = setup()
    const cut = saved(owner)
    const other = setup()
    // The absolute path is an ordinary path outside the workspace: denied like any other.
    expect(await runTool(tool('read_file'), { path: cut.fullPath! }, other)).toMatchObject({ ok: false, output: 'Path is outside the workspace.' })
    expect(other.asks.at(-1)?.ask).toMatchObject({ outsideWorkspace: true })
    // The reference resolves in the reading session's own folder, where that output does not exist.
    expect(await runTool(tool('read_file'), { path: cut.ref! }, other)).toMatchObject({ ok: false, output: `File not found: ${cut.ref}. Use list_dir or glob to find the right path.` })
    for (const bad of ['tool-output://../x', 'tool-output:///etc/passwd', `tool-output://${path.basename(other.workdir)}`]) {
      const r = await runTool(tool('read_file'), { path: bad }, other)
      expect(r).toMatchObject({ ok: false, output: `${bad} is not a saved tool output reference; copy the reference from the truncation note exactly.` })
    }
  })
})
