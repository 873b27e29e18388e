import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentry, buildCli, tempDir, writeFiles } from './testing/cli-process'

/** `agentry changes`, `undo` and `redo` as a person types them, on a session an `agentry run` changed files in. */
beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})

describe('agentry changes / undo / redo', () => {
  it('lists what the run changed, plans an undo without --yes, undoes and redoes with --yes', async () => {
    const home = tempDir('cli-home')
    const work = tempDir('cli-work')
    made.push(home, work)
    writeFiles(work, { 'a.txt': 'a0\n' })
    writeFiles(home, {
      'script.yaml': {
        agents: {
          build: [
            { step: 1, text: 'Writing.', tools: [{ name: 'write_file', input: { path: 'a.txt', content: 'a1\n' } }, { name: 'write_file', input: { path: 'b.txt', content: 'b\n' } }] },
            { step: 2, text: 'Done.' },
          ],
          '*': [{ text: 'Title', repeat: true }],
        },
      },
    })
    const env = { AGENTRY_SCRIPT: path.join(home, 'script.yaml') }
    const run = (args: string[]) => agentry(args, { home, cwd: work, env })
    const r = await run(['run', '--json', '--yes', '--model', 'script/x', 'change a'])
    expect(r.code).toBe(0)
    const sessionId = (r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { stream?: string }).find((e) => e.stream) ?? {}).stream!
    expect(sessionId).toMatch(/^ses_/)
    const read = (f: string) => (fs.existsSync(path.join(work, f)) ? fs.readFileSync(path.join(work, f), 'utf8') : null)

    const listed = await run(['changes', sessionId])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain('change a')
    expect(listed.stdout).toMatch(/modified\s+a\.txt\s+\+1 -1\s+· build/)
    expect(listed.stdout).toMatch(/added\s+b\.txt/)
    expect(listed.stdout).toContain('-a0')
    const json = JSON.parse((await run(['changes', sessionId, '--json'])).stdout) as { turns: { files: { path: string }[] }[] }
    expect(json.turns[0].files.map((f) => f.path)).toEqual(['a.txt', 'b.txt'])

    const plan = await run(['undo', sessionId])
    expect(plan.code).toBe(0)
    expect(plan.stdout).toContain('Would restore 2 file(s)')
    expect(plan.stdout).toContain('Run again with --yes')
    expect(read('a.txt')).toBe('a1\n')

    const undo = await run(['undo', sessionId, '--yes'])
    expect(undo.code).toBe(0)
    expect(undo.stdout).toContain('Restored 2 file(s)')
    expect([read('a.txt'), read('b.txt')]).toEqual(['a0\n', null])

    const redo = await run(['redo', sessionId, '--yes'])
    expect(redo.code).toBe(0)
    expect([read('a.txt'), read('b.txt')]).toEqual(['a1\n', 'b\n'])

    // The person edits a file; undo refuses with exit 1 and writes nothing.
    fs.writeFileSync(path.join(work, 'a.txt'), 'mine\n')
    const refused = await run(['undo', sessionId, '--yes'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('nothing was written')
    expect(refused.stderr).toMatch(/a\.txt: .*changed/)
    expect([read('a.txt'), read('b.txt')]).toEqual(['mine\n', 'b\n'])

    // An id that names nothing is a usage error.
    const none = await run(['undo', 'ses_nope'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('no session ses_nope')
    expect((await run(['undo'])).code).toBe(2)
  }, 60_000)
})
