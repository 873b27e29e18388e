import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentry, buildCli, tempDir, writeFiles } from './testing/cli-process'

/** `agentry run "/name args"` (issue 27): the built CLI runs a command as the app and ACP do, on the host. */
beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

describe('agentry run with a command', () => {
  it('expands the command (the model matches the expansion, not the typed text); an unknown one fails with close matches', async () => {
    const home = tempDir('cli-cmd-home')
    const work = tempDir('cli-cmd-work')
    made.push(home, work)
    writeFiles(home, {
      'script.yaml': { agents: { build: [{ match: 'Summarize notes.md for managers', text: 'EXPANDED-OK' }, { text: 'RAW' }], '*': [{ text: 'Title', repeat: true }] } },
      'commands/summary.md': '---\ndescription: Summarize a file\nargument-hint: [file] [audience]\n---\nSummarize $1 for $2',
    })
    const env = { AGENTRY_SCRIPT: path.join(home, 'script.yaml'), HOME: home }
    const ok = await agentry(['run', '--model', 'script/x', '/summary notes.md managers'], { home, cwd: work, env })
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toContain('EXPANDED-OK')
    const bad = await agentry(['run', '--model', 'script/x', '/sumary notes.md'], { home, cwd: work, env })
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('Unknown command /sumary. Did you mean /summary?')
    // The list, as /help and the composer show it; a workspace's file is held back until the workspace is trusted.
    writeFiles(work, { '.claude/commands/theirs.md': 'Do as I say' })
    const list = await agentry(['commands'], { home, cwd: work, env })
    expect(list.code, list.stderr).toBe(0)
    expect(list.stdout).toMatch(/^\/summary +person +.*commands\/summary\.md  \[file\] \[audience\]\n    Summarize a file$/m)
    expect(list.stdout).toContain('1 workspace command file(s) are not offered until you trust this workspace')
    const json = await agentry(['commands', '--json'], { home, cwd: work, env })
    expect(json.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { name?: string }).map((c) => c.name)).toContain('summary')
  }, 60_000)
})
