import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { protectedWriteReason } from './protected-paths'

const dirs: string[] = []
function tempDir(): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-protected-')))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

describe('protectedWriteReason', () => {
  // [workspace-relative target, protected?, label in the reason]
  const cases: [string, boolean, string?][] = [
    ['.agents/permissions.jsonc', true, '.agents'],
    ['.agents/config.yaml', true, '.agents'],
    ['.agents/agents/x.md', true, '.agents'],
    ['.agents', true, '.agents'],
    ['.claude/agents/a.md', true, '.claude'],
    ['.claude/settings.json', true, '.claude'],
    ['.opencode/agent/b.md', true, '.opencode'],
    ['.mcp.json', true, '.mcp.json'],
    ['.git/config', true, '.git/config'],
    ['.git/config.worktree', true, '.git/config.worktree'],
    ['.git/hooks/pre-commit', true, '.git/hooks'],
    ['.git/hooks', true, '.git/hooks'],
    ['.git', true, '.git'],
    ['.git/modules/sub/config', true, '.git/modules/sub/config'],
    ['.git/modules/a/modules/b/config', true, '.git/modules/a/modules/b/config'],
    ['.git/modules/sub/hooks/post-checkout', true, '.git/hooks'],
    ['.git/worktrees/w1/config.worktree', true, '.git/worktrees/w1/config.worktree'],
    ['.AGENTS/permissions.jsonc', true, '.agents'],
    ['.Git/Config', true],
    // Decisions (docs/decisions.md): not protected.
    ['.git/HEAD', false],
    ['.git/index', false],
    ['.git/objects/ab/cdef', false],
    ['.git/refs/heads/main', false],
    ['.git/info/exclude', false],
    ['.git/info/attributes', false],
    ['.gitmodules', false],
    ['.gitattributes', false],
    ['.gitignore', false],
    ['AGENTS.md', false],
    ['CLAUDE.md', false],
    ['.agentsx/file', false],
    ['src/.agents.ts', false],
    ['src/.agents/permissions.jsonc', false],
    ['docs/.git/config', false],
    ['README.md', false],
  ]
  it.each(cases)('%s → protected: %s', (rel, expected, label) => {
    const work = tempDir()
    const data = tempDir()
    const reason = protectedWriteReason(path.join(work, rel), work, data)
    expect(reason !== null).toBe(expected)
    if (label) expect(reason).toBe(`${label} is protected configuration: this changes what agents may do`)
  })

  it('protects the data dir and a symlinked config folder under its real name', () => {
    const work = tempDir()
    const data = tempDir()
    fs.mkdirSync(path.join(work, 'cfg'))
    fs.symlinkSync(path.join(work, 'cfg'), path.join(work, '.agents'))
    expect(protectedWriteReason(path.join(work, 'cfg', 'permissions.jsonc'), work, data)).toMatch(/^\.agents is protected/)
    expect(protectedWriteReason(path.join(data, 'permissions.jsonc'), work, data)).toMatch(/data dir/)
    expect(protectedWriteReason(path.join(data, 'agents', 'x.md'), work, data)).toMatch(/data dir/)
  })

  it('protects a data dir reached through a symlink, and one inside the workspace', () => {
    const work = tempDir()
    const real = tempDir()
    const link = path.join(tempDir(), 'home-link')
    fs.symlinkSync(real, link)
    expect(protectedWriteReason(path.join(real, 'keys.json'), work, link)).toMatch(/data dir/)
    expect(protectedWriteReason(path.join(work, '.home', 'trust.json'), work, path.join(work, '.home'))).toMatch(/data dir/)
  })

  it('protects a git dir reached through a symlinked .git', () => {
    const work = tempDir()
    const gitdir = tempDir()
    fs.symlinkSync(gitdir, path.join(work, '.git'))
    expect(protectedWriteReason(path.join(gitdir, 'hooks', 'pre-push'), work, tempDir())).toMatch(/^\.git\/hooks/)
    expect(protectedWriteReason(path.join(gitdir, 'objects', 'x'), work, tempDir())).toBeNull()
  })

  it("protects git's core.hooksPath (husky) as hooks", () => {
    const work = tempDir()
    execFileSync('git', ['init', '-q', work])
    expect(protectedWriteReason(path.join(work, '.husky', 'pre-commit'), work, tempDir())).toBeNull()
    execFileSync('git', ['-C', work, 'config', 'core.hooksPath', '.husky'])
    expect(protectedWriteReason(path.join(work, '.husky', 'pre-commit'), work, tempDir())).toMatch(/core\.hooksPath/)
  })

  it('protects a file hard-linked to protected configuration', () => {
    const work = tempDir()
    const data = tempDir()
    fs.mkdirSync(path.join(work, '.agents'))
    fs.writeFileSync(path.join(work, '.agents', 'permissions.jsonc'), '{}')
    fs.linkSync(path.join(work, '.agents', 'permissions.jsonc'), path.join(work, 'notes.txt'))
    fs.writeFileSync(path.join(work, 'other.txt'), 'x')
    fs.linkSync(path.join(work, 'other.txt'), path.join(work, 'other-link.txt'))
    expect(protectedWriteReason(path.join(work, 'notes.txt'), work, data)).toMatch(/^\.agents\/permissions\.jsonc \(the same file under another name\) is protected/)
    expect(protectedWriteReason(path.join(work, 'other-link.txt'), work, data)).toBeNull()
  })
})
