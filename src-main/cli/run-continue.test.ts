import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentry, buildCli, tempDir, writeFiles } from './testing/cli-process'

/** `agentry run --continue` and `--session ID` (issue 28): go on with a conversation from the command line. */
beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})

function scene() {
  const home = tempDir('cli-cont-home')
  const work = tempDir('cli-cont-work')
  made.push(home, work)
  const script = path.join(home, 'script.yaml')
  writeFiles(home, {
    'script.yaml': {
      agents: {
        build: [
          { match: 'remember 42', text: 'Noted: 42.' },
          { match: 'what number', text: 'You said 42.' },
          { match: 'other thread', text: 'A new thread.' },
        ],
        plan: [{ match: 'what number', text: 'Plan says 42.' }],
        '*': [{ text: 'Numbers', repeat: true }],
      },
    },
    'config.yaml': { model: 'script/x', providers: { script: { type: 'script', script } } },
  })
  const run = (args: string[]) => agentry(['run', ...args], { home, cwd: work })
  return { home, work, run }
}

const sessionOf = (r: { stdout: string; stderr: string }) => /session (ses_\w+)/.exec(r.stdout + r.stderr)?.[1]
const userTexts = async (s: ReturnType<typeof scene>, id: string) => {
  const shown = await agentry(['show', id, '--json'], { home: s.home, cwd: s.work })
  const { messages } = JSON.parse(shown.stdout) as { messages: { role: string; parts: { data: { text?: string } }[] }[] }
  return messages.filter((m) => m.role === 'user').map((m) => m.parts.map((p) => p.data.text ?? '').join(''))
}

describe('agentry run going on with a conversation', () => {
  it('--continue prompts the latest conversation of the workspace; only this answer is printed', async () => {
    const s = scene()
    const first = await s.run(['remember 42'])
    expect(first.code, first.stderr).toBe(0)
    const id = sessionOf(first)!
    const again = await s.run(['--continue', 'what number did I say?'])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout.trim()).toBe('You said 42.')
    expect(sessionOf(again)).toBe(id)
    expect(await userTexts(s, id)).toEqual(['remember 42', 'what number did I say?'])
    // The conversation as Markdown, as the app's Export writes it.
    const md = await agentry(['show', id, '--markdown'], { home: s.home, cwd: s.work })
    expect(md.code, md.stderr).toBe(0)
    expect(md.stdout).toMatch(/^# Numbers\n\n_Agentry conversation · /)
    expect(md.stdout).toMatch(/## You · \d{4}-\d\d-\d\d \d\d:\d\d UTC\n\nremember 42\n\n## build · [^\n]+\n\nNoted: 42\./)
  }, 60_000)

  it('--session ID goes on with that one (not the latest), --agent for this message; bad uses are one-line usage errors', async () => {
    const s = scene()
    const older = sessionOf(await s.run(['remember 42']))!
    const newer = sessionOf(await s.run(['other thread']))!
    expect(newer).not.toBe(older)
    const r = await s.run(['--session', older, '--agent', 'plan', 'what number?'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout.trim()).toBe('Plan says 42.')
    expect(await userTexts(s, older)).toEqual(['remember 42', 'what number?'])
    const unknown = await s.run(['--session', 'ses_nope', 'hi'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr.trim()).toBe('--session ses_nope: no such session (agentry sessions lists them)')
    const both = await s.run(['--session', older, '--continue', 'hi'])
    expect(both.code).toBe(2)
    expect(both.stderr.trim()).toBe('use either --session ID or --continue, not both')
  }, 60_000)

  it('--continue in a workspace without a conversation says so', async () => {
    const s = scene()
    const r = await s.run(['--continue', 'hi'])
    expect(r.code).toBe(2)
    expect(r.stderr.trim()).toBe(`--continue: no conversation yet in ${fs.realpathSync(s.work)}; run without --continue to start one`)
  }, 60_000)
})
