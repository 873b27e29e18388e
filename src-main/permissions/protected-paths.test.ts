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
  const cases: [string, boolean][] = [
    ['.agents/permissions.jsonc', true],
    ['.agents/agents/x.md', true],
    ['.agents', true],
    ['.claude/agents/a.md', true],
    ['.opencode/agent/b.md', true],
    ['.mcp.json', true],
    ['.git/config', true],
    ['.git/hooks/pre-commit', true],
    ['.git/HEAD', false],
    ['.agentsx/file', false],
    ['src/.agents.ts', false],
    ['AGENTS.md', false],
    ['README.md', false],
  ]
  it.each(cases)('%s → protected: %s', (rel, expected) => {
    const work = tempDir()
    const data = tempDir()
    expect(protectedWriteReason(path.join(work, rel), work, data) !== null).toBe(expected)
  })

  it('protects the data dir and a symlinked config folder under its real name', () => {
    const work = tempDir()
    const data = tempDir()
    fs.mkdirSync(path.join(work, 'cfg'))
    fs.symlinkSync(path.join(work, 'cfg'), path.join(work, '.agents'))
    expect(protectedWriteReason(path.join(work, 'cfg', 'permissions.jsonc'), work, data)).toMatch(/\.agents is protected/)
    expect(protectedWriteReason(path.join(data, 'permissions.jsonc'), work, data)).toMatch(/data dir/)
  })
})
