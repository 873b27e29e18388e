import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../testing/harness'

/** Issue 24: a kept worktree's changes applied to the workspace by a three-way merge, all or nothing, undoable. */
const script = {
  agents: {
    build: [
      { step: 1, tools: [{ name: 'task', input: { subagent_type: 'worker', description: 'Edit in a worktree', prompt: 'edit', isolation: 'worktree' } }] },
      { text: 'done', repeat: true },
    ],
    worker: [
      { step: 1, tools: [{ name: 'write_file', input: { path: 'a.txt', content: 'A1\nL2\nL3\n' } }, { name: 'write_file', input: { path: 'new.txt', content: 'new\n' } }] },
      { text: 'worker done', repeat: true },
    ],
    '*': [{ text: 'title', repeat: true }],
  },
}

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

function gitState(dir: string): string {
  const hash = (f: string) => (fs.existsSync(f) ? createHash('sha256').update(fs.readFileSync(f)).digest('hex') : 'none')
  const git = (...a: string[]) => execFileSync('git', a, { cwd: dir, encoding: 'utf8' })
  return [hash(path.join(dir, '.git', 'index')), git('rev-parse', 'HEAD'), git('for-each-ref'), git('stash', 'list')].join('\n')
}

async function withKeptWorktree() {
  h = await createHarness({ script, files: { 'a.txt': 'L1\nL2\nL3\n', 'b.txt': 'b\n' }, headlessRun: { yes: true, allow: [] }, agents: { worker: { mode: 'subagent' } } })
  const git = (...a: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...a], { cwd: h!.workdir, stdio: 'pipe' })
  git('init', '-q', '-b', 'main')
  git('add', '-A')
  git('commit', '-q', '-m', 'start')
  const { sessionId } = await h.run('go')
  const { worktrees } = await h.host.api.calls['changes.list']({ sessionId })
  expect(worktrees).toHaveLength(1)
  expect(worktrees[0].worktree.state).toBe('kept')
  return { h, sessionId, taskId: worktrees[0].taskId }
}

const read = (rel: string) => (fs.existsSync(path.join(h!.workdir, rel)) ? fs.readFileSync(path.join(h!.workdir, rel), 'utf8') : null)

describe('Apply a kept worktree to the workspace', () => {
  it('merges per file with the person’s own edits, writes new files, never touches their .git; undoable', async () => {
    const { h, sessionId, taskId } = await withKeptWorktree()
    // The worktree child never wrote the workspace.
    expect([read('a.txt'), read('new.txt')]).toEqual(['L1\nL2\nL3\n', null])
    fs.writeFileSync(path.join(h.workdir, 'a.txt'), 'L1\nL2\nmine\n')
    const git = gitState(h.workdir)
    const plan = await h.host.api.calls['changes.applyWorktree']({ sessionId, taskId, dryRun: true })
    expect(plan).toMatchObject({ applied: false, conflicts: [] })
    expect(plan.steps.map((s) => `${s.action} ${s.path}`)).toEqual(['restore a.txt', 'recreate new.txt'])
    expect(read('new.txt')).toBeNull()
    const r = await h.host.api.calls['changes.applyWorktree']({ sessionId, taskId })
    expect(r).toMatchObject({ applied: true, conflicts: [] })
    expect([read('a.txt'), read('new.txt')]).toEqual(['A1\nL2\nmine\n', 'new\n'])
    expect(gitState(h.workdir)).toBe(git)
    // Recorded as a change of its own: reverting it puts the workspace back as it was, the person's edit included.
    const { turns } = await h.host.api.calls['changes.list']({ sessionId })
    const applied = turns.find((t) => t.messagePreview.startsWith('Applied'))!
    expect(applied.files.map((f) => f.path)).toEqual(['a.txt', 'new.txt'])
    const back = await h.host.api.calls['changes.revert']({ sessionId, checkpointId: applied.checkpointId })
    expect(back.applied).toBe(true)
    expect([read('a.txt'), read('new.txt')]).toEqual(['L1\nL2\nmine\n', null])
  })

  it('refuses when the person changed the same lines, and writes nothing', async () => {
    const { h, sessionId, taskId } = await withKeptWorktree()
    fs.writeFileSync(path.join(h.workdir, 'a.txt'), 'mine 1\nL2\nL3\n')
    const r = await h.host.api.calls['changes.applyWorktree']({ sessionId, taskId })
    expect(r.applied).toBe(false)
    expect(r.conflicts).toEqual([expect.objectContaining({ path: 'a.txt' })])
    expect([read('a.txt'), read('new.txt')]).toEqual(['mine 1\nL2\nL3\n', null])
  })
})
