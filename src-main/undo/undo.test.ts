import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../testing/harness'
import { expireCheckpoints, TurnRecorder } from './index'

/**
 * Issue 24 on a real host: checkpoints around turns of the script model, real files, real git (the shadow store),
 * real bash. What each file tool and bash changed, who changed it, undo, redo, revert of one agent, conflicts.
 */
const tool = (name: string, input: Record<string, unknown>) => ({ name, input })
const write = (p: string, content: string) => tool('write_file', { path: p, content })
const bash = (command: string) => tool('bash', { command, description: command })
const task = (subagent_type: string, prompt: string) => tool('task', { subagent_type, description: prompt, prompt })

const script = {
  agents: {
    build: [
      { match: 'first', step: 1, tools: [write('a.txt', 'a1\n'), bash('echo made > made.txt')] },
      { match: 'second', step: 1, tools: [tool('edit_file', { path: 'b.txt', old_string: 'b0', new_string: 'b1' }), bash('rm keep.txt && sed -i s/s0/s1/ sed.txt')] },
      { match: 'both write', step: 1, tools: [task('worker', 'write shared A'), task('worker', 'write shared B')] },
      { match: 'rename it', step: 1, tools: [bash('mv keep.txt kept.txt')] },
      { match: 'just read', step: 1, tools: [tool('read_file', { path: 'a.txt' }), tool('list_dir', { path: '.' })] },
      { match: 'two places', step: 1, repeat: true, tools: [write('long.txt', 'L1\nCHANGED 2\nL3\nL4\nL5\nL6\nL7\nL8\nL9\nL10\nCHANGED 11\nL12\n')] },
      { match: 'delegate', step: 1, tools: [write('own.txt', 'own\n'), task('worker', 'write c')] },
      { text: 'done', repeat: true },
    ],
    worker: [
      { match: 'write shared A', step: 1, tools: [write('shared.txt', 'A\n')] },
      { match: 'write shared B', step: 1, tools: [write('shared.txt', 'B\n')] },
      { step: 1, tools: [write('c.txt', 'c by worker\n')] },
      { text: 'worker done', repeat: true },
    ],
    '*': [{ text: 'title', repeat: true }],
  },
}

/** A recorder on the host's data dir and rows (what the host's timer uses), for calls the host makes by itself. */
const recorderOf = (h: Harness) => new TurnRecorder({ dataDir: h.dataDir, rows: h.host.store.checkpoints, fault: (_, err) => String(err) })

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const long = 'L1\nL2\nL3\nL4\nL5\nL6\nL7\nL8\nL9\nL10\nL11\nL12\n'
const files = { 'long.txt': long, 'a.txt': 'a0\n', 'b.txt': 'b0\n', 'keep.txt': 'keep\n', 'sed.txt': 's0\n', 'mine.txt': 'm0\n', '.gitignore': 'ignored/\n' }
const read = (rel: string) => (fs.existsSync(path.join(h!.workdir, rel)) ? fs.readFileSync(path.join(h!.workdir, rel), 'utf8') : null)
const userIds = (sessionId: string) => h!.host.store.transcript.listMessages(sessionId).filter((m) => m.role === 'user').map((m) => m.id)

async function start() {
  h = await createHarness({ script, files, headlessRun: { yes: true, allow: [] }, agents: { worker: { mode: 'subagent', inspectable: true } } })
  return h
}

describe('checkpoints around turns: the review of changes, undo, redo, revert', () => {
  it('records what each turn changed through file tools and bash, attributed; undo and redo restore files and messages', async () => {
    const h = await start()
    const { sessionId } = await h.run('first')
    expect(read('a.txt')).toBe('a1\n')
    fs.writeFileSync(path.join(h.workdir, 'mine.txt'), 'm1 by the person\n') // between turns
    fs.mkdirSync(path.join(h.workdir, 'ignored'))
    fs.writeFileSync(path.join(h.workdir, 'ignored/x.txt'), 'not recorded\n')
    await h.run('second', { sessionId })
    expect([read('b.txt'), read('keep.txt'), read('sed.txt')]).toEqual(['b1\n', null, 's1\n'])

    const { turns, redo } = await h.host.api.calls['changes.list']({ sessionId })
    expect(redo).toBeNull()
    expect(turns.map((t) => [t.messagePreview, t.state])).toEqual([['first', 'applied'], ['second', 'applied']])
    const who = (i: number) => Object.fromEntries(turns[i].files.map((f) => [`${f.status} ${f.path}`, f.authors.map((a) => `${a.agentPath.join(' › ')} (${a.via})`)]))
    expect(who(0)).toEqual({ 'modified a.txt': ['build (file tool)'], 'added made.txt': ['build (shell)'] })
    expect(who(1)).toEqual({ 'modified b.txt': ['build (file tool)'], 'deleted keep.txt': ['build (shell)'], 'modified sed.txt': ['build (shell)'] })
    const b = turns[1].files.find((f) => f.path === 'b.txt')!
    expect(b.hunks[0].lines).toEqual([
      { kind: 'delete', text: 'b0', oldLine: 1 },
      { kind: 'add', text: 'b1', newLine: 1 },
    ])

    // Undo the last turn: a dry run first changes nothing.
    const plan = await h.host.api.calls['changes.undo']({ sessionId, dryRun: true })
    expect(plan.applied).toBe(false)
    expect(plan.steps.map((s) => `${s.action} ${s.path}`)).toEqual(['restore b.txt', 'recreate keep.txt', 'restore sed.txt'])
    expect(read('b.txt')).toBe('b1\n')
    const [firstMsg, secondMsg] = userIds(sessionId)
    const undone = await h.host.api.calls['changes.undo']({ sessionId })
    expect(undone).toMatchObject({ applied: true, conflicts: [] })
    expect([read('b.txt'), read('keep.txt'), read('sed.txt'), read('a.txt'), read('mine.txt')]).toEqual(['b0\n', 'keep\n', 's0\n', 'a1\n', 'm1 by the person\n'])
    expect(undone.messageIds[0]).toBe(secondMsg)
    expect(userIds(sessionId)).toEqual([firstMsg])
    expect(h.events.some((e) => e.event.type === 'messages_hidden' && e.event.reason === 'undone')).toBe(true)
    expect((await h.host.api.calls['changes.list']({ sessionId })).redo).toEqual({ messageIds: undone.messageIds, turns: 1 })

    // Redo puts the files and the messages back.
    const redone = await h.host.api.calls['changes.redo']({ sessionId })
    expect(redone.applied).toBe(true)
    expect([read('b.txt'), read('keep.txt'), read('sed.txt')]).toEqual(['b1\n', null, 's1\n'])
    expect(userIds(sessionId)).toEqual([firstMsg, secondMsg])

    // Undo back to the first message: both turns; the person's own edit and the ignored folder stay.
    const all = await h.host.api.calls['changes.undo']({ sessionId, toMessageId: firstMsg })
    expect(all.applied).toBe(true)
    expect([read('a.txt'), read('made.txt'), read('b.txt'), read('keep.txt'), read('sed.txt')]).toEqual(['a0\n', null, 'b0\n', 'keep\n', 's0\n'])
    expect(read('mine.txt')).toBe('m1 by the person\n')
    expect(read('ignored/x.txt')).toBe('not recorded\n')
    expect(userIds(sessionId)).toEqual([])
  })

  it('a turn that only reads takes no snapshot at all; rewinding over it hides its messages, and Redo shows them again', async () => {
    const h = await start()
    const { sessionId } = await h.run('first')
    const store = path.join(h.dataDir, 'checkpoints')
    const objects = () => fs.readdirSync(store, { recursive: true }).length
    const before = objects()
    await h.run('just read', { sessionId })
    // No git ran: the shadow store is exactly as the first turn left it, and the read-only turn has no row.
    expect(objects()).toBe(before)
    expect((await h.host.api.calls['changes.list']({ sessionId })).turns).toHaveLength(1)
    const [, second] = userIds(sessionId)
    const r = await h.host.api.calls['changes.undo']({ sessionId })
    expect(r).toMatchObject({ applied: true, steps: [], conflicts: [] })
    expect(userIds(sessionId)).not.toContain(second)
    expect(read('a.txt')).toBe('a1\n')
    expect((await h.host.api.calls['changes.list']({ sessionId })).redo).toMatchObject({ turns: 1 })
    // Two undos in a row: Redo brings both back.
    await h.host.api.calls['changes.undo']({ sessionId })
    expect(read('a.txt')).toBe('a0\n')
    expect((await h.host.api.calls['changes.list']({ sessionId })).redo).toMatchObject({ turns: 2 })
    const redo = await h.host.api.calls['changes.redo']({ sessionId })
    expect(redo.applied).toBe(true)
    expect(read('a.txt')).toBe('a1\n')
    expect(userIds(sessionId)).toHaveLength(2)
    // A new message ends what Redo could bring back.
    await h.host.api.calls['changes.undo']({ sessionId })
    await h.run('just read', { sessionId })
    expect((await h.host.api.calls['changes.list']({ sessionId })).redo).toBeNull()
    await expect(h.host.api.calls['changes.redo']({ sessionId })).rejects.toThrow(/nothing to redo/)
  })

  it('two children writing the same file at once: both are named; undo takes the file back to before either', async () => {
    const h = await start()
    const { sessionId } = await h.run('both write')
    expect(['A\n', 'B\n']).toContain(read('shared.txt'))
    const { turns } = await h.host.api.calls['changes.list']({ sessionId })
    const shared = turns[0].files.find((f) => f.path === 'shared.txt')!
    expect(shared.status).toBe('added')
    expect(shared.authors.map((a) => a.agentPath.join(' › '))).toEqual(['build › worker', 'build › worker'])
    expect(new Set(shared.authors.map((a) => a.sessionPath.at(-1))).size).toBe(2)
    expect((await h.host.api.calls['changes.undo']({ sessionId })).applied).toBe(true)
    expect(read('shared.txt')).toBeNull()
  })

  it('a rename by bash is listed as a rename and undone as one', async () => {
    const h = await start()
    const { sessionId } = await h.run('rename it')
    const { turns } = await h.host.api.calls['changes.list']({ sessionId })
    expect(turns[0].files.map((f) => [f.status, f.oldPath, f.path, f.authors.map((a) => a.via)])).toEqual([['renamed', 'keep.txt', 'kept.txt', ['shell']]])
    expect((await h.host.api.calls['changes.undo']({ sessionId })).applied).toBe(true)
    expect([read('keep.txt'), read('kept.txt')]).toEqual(['keep\n', null])
  })

  it('turns older than checkpoints.keepDays lose their snapshots: listed as expired, never undone half-way', async () => {
    const h = await start()
    const { sessionId } = await h.run('first')
    await h.run('second', { sessionId })
    const kept = async () => (await (await recorderOf(h).store(h.workdir)).keys(sessionId)).length
    expect(await kept()).toBe(4)
    const [first] = (await h.host.api.calls['changes.list']({ sessionId })).turns
    // 31 days later, the first turn expires; the second was recorded "now" but is 31 days old then too: both go.
    const n = await expireCheckpoints({ recorder: recorderOf(h), rows: h.host.store.checkpoints, keepDays: 30, now: first.startedAt + 31 * 24 * 3600_000 })
    expect(n).toBe(2)
    expect(await kept()).toBe(0)
    const { turns } = await h.host.api.calls['changes.list']({ sessionId })
    expect(turns.map((t) => [t.state, t.files.length])).toEqual([['expired', 0], ['expired', 0]])
    expect(turns[0].error).toMatch(/dropped 30 days after the turn/)
    await expect(h.host.api.calls['changes.undo']({ sessionId })).rejects.toThrow(/older than checkpoints.keepDays/)
    expect(read('b.txt')).toBe('b1\n')
  })

  it('Open refuses anything but a file of the workspace (outside, through a link, a folder, gone)', async () => {
    const h = await start()
    const { sessionId } = await h.run('just read')
    fs.symlinkSync('/etc/hostname', path.join(h.workdir, 'link-out'))
    const open = (p: string) => h.host.api.calls['changes.open']({ sessionId, path: p })
    await expect(open('../outside.txt')).rejects.toThrow(/outside the workspace|not in the workspace/)
    await expect(open('/etc/passwd')).rejects.toThrow(/outside the workspace/)
    await expect(open('link-out')).rejects.toThrow(/outside the workspace/)
    await expect(open('.')).rejects.toThrow(/is not a file/)
    await expect(open('gone.txt')).rejects.toThrow(/not in the workspace \(any more\)/)
  })

  it('deleting a session forgets its snapshots, and the host stops only once git is done with the store', async () => {
    const h = await start()
    const { sessionId } = await h.run('first')
    const [store] = fs.readdirSync(path.join(h.dataDir, 'checkpoints'))
    const gitDir = path.join(h.dataDir, 'checkpoints', store, 'git')
    const refs = () => execFileSync('git', ['--git-dir', gitDir, 'for-each-ref', 'refs/checkpoints/'], { encoding: 'utf8' })
    expect(refs()).toContain(sessionId)
    await h.host.api.calls['sessions.delete']({ sessionId })
    await h.host.stop()
    expect(refs()).toBe('')
    // Nothing of git is still writing there: the folder goes at once (it failed with ENOTEMPTY while a gc ran).
    fs.rmSync(path.join(h.dataDir, 'checkpoints'), { recursive: true })
  })

  it('refuses an undo that would lose a change the person made since, and writes nothing', async () => {
    const h = await start()
    const { sessionId } = await h.run('first')
    fs.writeFileSync(path.join(h.workdir, 'a.txt'), 'a2 by the person\n')
    // The plan (a dry run) already names the conflict: the disk is checked, nothing written.
    const plan = await h.host.api.calls['changes.undo']({ sessionId, dryRun: true })
    expect(plan.conflicts).toEqual([expect.objectContaining({ path: 'a.txt', reason: 'changed since' })])
    const r = await h.host.api.calls['changes.undo']({ sessionId })
    expect(r.applied).toBe(false)
    expect(r.conflicts).toEqual([expect.objectContaining({ path: 'a.txt', reason: 'changed since' })])
    expect([read('a.txt'), read('made.txt')]).toEqual(['a2 by the person\n', 'made\n'])
    expect(userIds(sessionId)).toHaveLength(1)
  })

  it('reverts one change (hunk) of a file, keeping later edits elsewhere in it; refuses when its lines changed since', async () => {
    const h = await start()
    const { sessionId } = await h.run('change two places')
    const { turns } = await h.host.api.calls['changes.list']({ sessionId })
    const file = turns[0].files.find((f) => f.path === 'long.txt')!
    expect(file.hunks).toHaveLength(2)
    // The person edits the last line after the turn: the first hunk can still be taken back, their edit stays.
    fs.writeFileSync(path.join(h.workdir, 'long.txt'), read('long.txt')!.replace('L12', 'L12 mine'))
    const checkpointId = turns[0].checkpointId
    const r = await h.host.api.calls['changes.revert']({ sessionId, checkpointId, paths: ['long.txt'], hunk: 0 })
    expect(r).toMatchObject({ applied: true, conflicts: [] })
    expect(read('long.txt')).toBe(long.replace('L11', 'CHANGED 11').replace('L12', 'L12 mine'))
    // The second hunk's lines are changed by the person now: refused, nothing written.
    fs.writeFileSync(path.join(h.workdir, 'long.txt'), read('long.txt')!.replace('CHANGED 11', 'CHANGED 11 again'))
    const refused = await h.host.api.calls['changes.revert']({ sessionId, checkpointId, paths: ['long.txt'], hunk: 1 })
    expect(refused.applied).toBe(false)
    expect(refused.conflicts).toEqual([expect.objectContaining({ path: 'long.txt', reason: 'changed since' })])
    expect(read('long.txt')).toContain('CHANGED 11 again')
  })

  it('reverting a file keeps later edits to other lines of it (a merge), and refuses when they touched the same lines', async () => {
    const h = await start()
    const { sessionId } = await h.run('change two places')
    const { turns } = await h.host.api.calls['changes.list']({ sessionId })
    const checkpointId = turns[0].checkpointId
    // The person edits line 6 since: reverting the whole file's change takes back lines 2 and 11, keeps line 6.
    // (git merges as it reverts a commit: an edit right next to a changed line would count as the same lines.)
    fs.writeFileSync(path.join(h.workdir, 'long.txt'), read('long.txt')!.replace('L6', 'L6 mine'))
    const r = await h.host.api.calls['changes.revert']({ sessionId, checkpointId, paths: ['long.txt'] })
    expect(r).toMatchObject({ applied: true, conflicts: [] })
    expect(read('long.txt')).toBe(long.replace('L6', 'L6 mine'))
    // Again on a fresh turn, with the person's edit on a changed line: refused, nothing written.
    const second = await h.run('change two places', { sessionId })
    expect(second.final?.finishReason).toBe('stop')
    const latest = (await h.host.api.calls['changes.list']({ sessionId })).turns.at(-1)!
    fs.writeFileSync(path.join(h.workdir, 'long.txt'), read('long.txt')!.replace('CHANGED 2', 'CHANGED 2 mine'))
    const refused = await h.host.api.calls['changes.revert']({ sessionId, checkpointId: latest.checkpointId, paths: ['long.txt'] })
    expect(refused.applied).toBe(false)
    expect(refused.conflicts).toEqual([expect.objectContaining({ path: 'long.txt', reason: 'changed since', detail: expect.stringContaining('same lines') })])
    expect(read('long.txt')).toContain('CHANGED 2 mine')
  })

  it("reverts one subagent's changes only, and records the revert so a later undo stays exact", async () => {
    const h = await start()
    const { sessionId } = await h.run('delegate')
    expect([read('own.txt'), read('c.txt')]).toEqual(['own\n', 'c by worker\n'])
    const { turns } = await h.host.api.calls['changes.list']({ sessionId })
    const c = turns[0].files.find((f) => f.path === 'c.txt')!
    expect(c.authors.map((a) => a.agentPath.join(' › '))).toEqual(['build › worker'])
    const worker = c.authors[0].sessionPath.at(-1)!
    const r = await h.host.api.calls['changes.revert']({ sessionId, agentSessionId: worker })
    expect(r).toMatchObject({ applied: true, steps: [{ path: 'c.txt', action: 'delete' }] })
    expect([read('own.txt'), read('c.txt')]).toEqual(['own\n', null])
    // The revert is a recorded change of its own; undoing the whole turn afterwards takes back own.txt as well.
    const after = await h.host.api.calls['changes.list']({ sessionId })
    expect(after.turns.map((t) => t.messagePreview)).toEqual(['delegate', 'Revert'])
    const undo = await h.host.api.calls['changes.undo']({ sessionId })
    expect(undo.applied).toBe(true)
    expect([read('own.txt'), read('c.txt')]).toEqual([null, null])
  })
})
