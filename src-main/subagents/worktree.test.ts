import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { TaskCard } from '../../src-shared'
import { createHarness, toolParts, type Harness } from '../testing/harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8', stdio: 'pipe' })
const task = (extra: Record<string, unknown>) => ({ name: 'task', input: { subagent_type: 'worker', description: 'Change it', prompt: 'change it', ...extra } })
const cardsOf = (messages: Parameters<typeof toolParts>[0]) => toolParts(messages).filter((p) => p.type === 'tool-task')

async function harness(o: { repo: 'none' | 'empty' | 'committed'; worker?: Record<string, unknown>; build: Record<string, unknown>[]; workerReplies?: Record<string, unknown>[] }) {
  h = await createHarness({
    files: { 'src/a.txt': 'alpha\n' },
    agents: { worker: { mode: 'subagent', ...o.worker } },
    script: {
      agents: {
        build: o.build,
        worker: o.workerReplies ?? [{ text: 'nothing to change', repeat: true }],
        title: [{ text: 't', repeat: true }],
      },
    },
  })
  if (o.repo !== 'none') git(h.workdir, 'init', '-q', '-b', 'main')
  if (o.repo === 'committed') {
    git(h.workdir, 'add', '-A')
    git(h.workdir, 'commit', '-q', '-m', 'start')
  }
  return h
}

describe('isolation: worktree', () => {
  it.each([
    ['not a git repository', 'none', /^isolation "worktree" needs a git repository, and .* is not in one \(fatal: not a git repository/],
    ['a repository without a commit', 'empty', /^isolation "worktree" needs a commit to start from, and the repository at .* has none yet/],
  ] as const)('%s → a tool error saying so, and nothing runs', async (_name, repo, error) => {
    await harness({ repo, build: [{ step: 1, tools: [task({ isolation: 'worktree' })] }, { step: 2, text: 'ok' }] })
    const r = await h!.run('go')
    const [part] = cardsOf(r.messages)
    expect(part.toolState).toBe('output-error')
    expect(String(part.data.error)).toMatch(error)
    expect(part.data.subagent).toBeUndefined()
    expect(fs.existsSync(path.join(h!.dataDir, 'worktrees'))).toBe(false)
  })

  it('an agent whose file says isolation: worktree always gets one; its tools are confined to it', async () => {
    await harness({
      repo: 'committed',
      worker: { isolation: 'worktree' },
      build: [{ step: 1, tools: [task({})] }, { step: 2, text: 'ok' }],
      workerReplies: [
        {
          step: 1,
          tools: [
            { name: 'edit_file', input: { path: 'src/a.txt', old_string: 'alpha', new_string: 'beta' } },
            { name: 'write_file', input: { path: `${'../'.repeat(6)}escape.txt`, content: 'x' } },
          ],
        },
        { step: 2, text: 'edited' },
      ],
    })
    const r = await h!.run('go')
    const card = cardsOf(r.messages)[0].data.subagent as TaskCard
    const w = card.worktree!
    expect(w).toMatchObject({ state: 'kept', branch: `agentry/${card.taskId}`, diffStat: '1 file changed, 1 insertion(+), 1 deletion(-)' })
    expect(fs.readFileSync(path.join(w.path, 'src/a.txt'), 'utf8')).toBe('beta\n')
    // The workspace itself is untouched, and nothing got out of the worktree.
    expect(fs.readFileSync(path.join(h!.workdir, 'src/a.txt'), 'utf8')).toBe('alpha\n')
    const escape = toolParts(card.transcript!).find((p) => p.type === 'tool-write_file')!
    expect(escape.toolState).toBe('output-error')
    // The parent reads the branch and how to review and merge it (in the repository), never the worktree's folder.
    const base = w.base.slice(0, 12)
    const branch = `agentry/${card.taskId}`
    expect(String(cardsOf(r.messages)[0].data.output).split('\n').slice(-2)).toEqual([
      `Worktree kept: branch ${branch} (1 file changed, 1 insertion(+), 1 deletion(-)), started from ${base}.`,
      `To review: git diff ${base}...${branch} — to merge: git merge ${branch} (in ${w.repo}).`,
    ])
    // What the child left uncommitted is committed on its own branch (so the merge takes all of it); the person's
    // branch and index are untouched.
    expect(git(w.path, 'status', '--porcelain')).toBe('')
    expect(git(h!.workdir, 'log', '--format=%s', `${w.base}..${branch}`).trim()).toBe(`Agentry task ${card.taskId}: Change it`)
    expect(git(h!.workdir, 'diff', `${base}...${branch}`)).toMatch(/-alpha\n\+beta/)
    expect(git(h!.workdir, 'status', '--porcelain')).toBe('')
    expect(String(cardsOf(r.messages)[0].data.output)).not.toContain(w.path)
    // The diff the card's "show diff" shows: the worktree against where it started.
    expect(git(w.path, 'diff', w.base)).toMatch(/-alpha\n\+beta/)
  })

  it('a resumed child goes on in the worktree it kept', async () => {
    await harness({
      repo: 'committed',
      worker: { inspectable: true },
      build: [
        { match: 'first', step: 1, tools: [task({ isolation: 'worktree', prompt: 'write one' })] },
        { match: 'first', step: 2, text: 'one done' },
        { match: 'second', step: 2, text: 'two done' },
      ],
      workerReplies: [
        { match: 'write one', step: 1, tools: [{ name: 'write_file', input: { path: 'one.txt', content: '1\n' } }] },
        { match: 'write one', step: 2, text: 'wrote one' },
        { match: 'write two', step: 1, tools: [{ name: 'write_file', input: { path: 'two.txt', content: '2\n' } }] },
        { match: 'write two', step: 2, text: 'wrote two' },
      ],
    })
    const first = await h!.run('first')
    const taskId = (cardsOf(first.messages)[0].data.subagent as TaskCard).taskId
    h!.setScript({
      agents: {
        build: [{ match: 'second', step: 1, tools: [task({ isolation: 'worktree', prompt: 'write two', task_id: taskId })] }, { match: 'second', step: 2, text: 'two done' }],
        worker: [
          { match: 'write two', step: 1, tools: [{ name: 'write_file', input: { path: 'two.txt', content: '2\n' } }] },
          { match: 'write two', step: 2, text: 'wrote two' },
        ],
        title: [{ text: 't', repeat: true }],
      },
    })
    const second = await h!.run('second', { sessionId: first.sessionId })
    const card = cardsOf(second.messages).at(-1)!.data.subagent as TaskCard
    expect(card.taskId).toBe(taskId)
    expect(card.worktree).toMatchObject({ state: 'kept', diffStat: '2 files changed, 2 insertions(+)' })
    expect(fs.readdirSync(card.worktree!.path).sort()).toEqual(['.agents', '.git', 'one.txt', 'src', 'two.txt'])
  })
})

describe('tasks.worktree: the card\'s actions', () => {
  it('shows the diff, removes folder and branch once, and refuses what no card names', async () => {
    await harness({
      repo: 'committed',
      build: [{ step: 1, tools: [task({ isolation: 'worktree' })] }, { step: 2, text: 'ok' }],
      workerReplies: [{ step: 1, tools: [{ name: 'write_file', input: { path: 'new.txt', content: 'n\n' } }] }, { step: 2, text: 'wrote' }],
    })
    const r = await h!.run('go')
    const card = cardsOf(r.messages)[0].data.subagent as TaskCard
    const call = h!.host.api.calls['tasks.worktree']
    const { diff } = await call({ sessionId: r.sessionId, taskId: card.taskId, action: 'diff' })
    expect(diff).toMatch(/^diff --git a\/new\.txt b\/new\.txt\n[\s\S]*\+n\n$/)
    const { worktree } = await call({ sessionId: r.sessionId, taskId: card.taskId, action: 'remove' })
    expect(worktree.state).toBe('removed')
    expect(fs.existsSync(card.worktree!.path)).toBe(false)
    expect(git(h!.workdir, 'branch', '--list', card.worktree!.branch).trim()).toBe('')
    // The stored card says so (a reload shows it), and a second removal is refused.
    const stored = cardsOf(h!.host.store.transcript.listMessages(r.sessionId))[0].data.subagent as TaskCard
    expect(stored.worktree?.state).toBe('removed')
    await expect(call({ sessionId: r.sessionId, taskId: card.taskId, action: 'remove' })).rejects.toThrow(/already removed/)
    await expect(call({ sessionId: r.sessionId, taskId: 'ses_nope', action: 'diff' })).rejects.toThrow(/No task ses_nope in session/)
  })
})
