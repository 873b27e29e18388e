import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { protectedWriteReason } from './protected-paths'

const dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-protected-wt-')))
const worktree = path.join(dataDir, 'worktrees', 'ses_a')
fs.mkdirSync(worktree, { recursive: true })
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

describe('a task worktree inside the data dir', () => {
  it.each([
    ['a file of the worktree, from a child working in it', worktree, path.join(worktree, 'src/a.ts'), null],
    ['the worktree\'s own .agents, from that child', worktree, path.join(worktree, '.agents/permissions.jsonc'), /^\.agents is protected/],
    ['the keys next to it, from that child', worktree, path.join(dataDir, 'keys.json'), /^the Agentry data dir is protected/],
    ['another task\'s worktree, from that child', worktree, path.join(dataDir, 'worktrees', 'ses_b', 'a.ts'), /^the Agentry data dir is protected/],
    ['a worktree file, from a run in some other workspace', '/elsewhere', path.join(worktree, 'a.ts'), /^the Agentry data dir is protected/],
    ['the worktrees folder itself as a workspace', path.join(dataDir, 'worktrees'), path.join(worktree, 'a.ts'), /^the Agentry data dir is protected/],
  ])('%s', (_what, workdir, target, expected) => {
    const reason = protectedWriteReason(target, workdir, dataDir)
    if (expected === null) expect(reason).toBeNull()
    else expect(reason).toMatch(expected)
  })
})
