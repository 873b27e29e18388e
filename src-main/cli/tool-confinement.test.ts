import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentry, buildCli, tempDir, writeFiles } from './testing/cli-process'

// The file-tool and web_fetch escapes of issues 8 and 9, through the built `agentry run` with the default rules: a
// scripted model calls the tools, marker files and a loopback server show what got through.

beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

interface ToolEnd {
  type: 'tool_call_end'
  sessionId: string
  toolName: string
  ok: boolean
  output: string
}

function scene(files: Record<string, string> = {}) {
  const home = tempDir('cli-home')
  const work = tempDir('cli-work')
  const outside = tempDir('cli-outside')
  made.push(home, work, outside)
  writeFiles(work, files)
  /** One `agentry run` whose build agent calls `tools` in one step; the tool results, in order. */
  const run = async (tools: Array<{ name: string; input: Record<string, unknown> }>, args: string[] = []) => {
    writeFiles(home, { 'script.yaml': { agents: { build: [{ step: 1, text: 'Calling.', tools }, { step: 2, text: 'Done.' }], '*': [{ text: 'Title', repeat: true }] } } })
    const r = await agentry(['run', '--model', 'script/x', '--json', ...args, 'go'], { home, cwd: work, env: { AGENTRY_SCRIPT: path.join(home, 'script.yaml') } })
    expect(r.code, r.stderr).toBe(0)
    const ends = r.stdout
      .split('\n')
      .filter((l) => l.includes('"tool_call_end"'))
      .map((l) => (JSON.parse(l) as { event: ToolEnd }).event)
    return ends
  }
  return { home, work, outside, run }
}

describe('file tools under the default rules (real CLI)', () => {
  it('grep, glob and list_dir skip .env and links out of the workspace, and name them', async () => {
    const s = scene({ '.env': 'TOKEN=SECRET-ENV\n', 'a.txt': 'TOKEN here\n' })
    fs.writeFileSync(path.join(s.outside, 'secret.txt'), 'TOKEN=SECRET-OUTSIDE\n')
    fs.symlinkSync(path.join(s.outside, 'secret.txt'), path.join(s.work, 'notes.txt'))
    const ends = await s.run([
      { name: 'grep', input: { pattern: 'TOKEN' } },
      { name: 'grep', input: { pattern: 'TOKEN', path: '.env' } },
      { name: 'glob', input: { pattern: '**/*' } },
      { name: 'list_dir', input: {} },
    ])
    for (const e of ends) expect(e.output).not.toContain('SECRET')
    const byName = Object.fromEntries(ends.map((e) => [`${e.toolName}${e.output.includes('in .env') ? ' .env' : ''}`, e.output]))
    expect(byName.grep).toBe('1 match in 1 file:\na.txt:1: TOKEN here\nNot searched, the rules do not let you read them: .env.\nSkipped symbolic links pointing outside the workspace: notes.txt.')
    expect(byName['grep .env']).toBe('No matches for /TOKEN/ in .env.\nNot searched, the rules do not let you read them: .env.')
    expect(byName.glob).toContain('Left out, the rules do not let you read them: .env.')
    expect(byName.list_dir).toBe('a.txt\nLeft out, the rules do not let you read them: .env.\nLeft out, symbolic links pointing outside the workspace: notes.txt.')
  }, 60_000)

  it("a session cannot read another session's saved tool output, by path or by reference", async () => {
    const s = scene({ 'big.txt': Array.from({ length: 400 }, (_, i) => `line ${i} ${'x'.repeat(120)}`).join('\n') })
    const [first] = await s.run([{ name: 'grep', input: { pattern: 'line' } }])
    const ref = /The full output is saved as (tool-output:\/\/\S+):/.exec(first.output)?.[1]
    expect(ref).toBeDefined()
    const saved = path.join(s.home, 'tool-output', first.sessionId, ref!.slice('tool-output://'.length))
    expect(fs.existsSync(saved)).toBe(true)
    // A new `agentry run` is another session: the absolute path is outside its workspace, the reference not its own.
    const [byPath, byRef] = await s.run([
      { name: 'read_file', input: { path: saved } },
      { name: 'read_file', input: { path: ref } },
    ])
    expect(byPath).toMatchObject({ ok: false, output: expect.stringContaining('is outside the workspace and no rule allows that path') })
    expect(byRef).toMatchObject({ ok: false, output: `File not found: ${ref}. Use list_dir or glob to find the right path.` })
  }, 60_000)
})

describe('web_fetch to this machine (real CLI)', () => {
  let server: http.Server
  let url: string
  let hits = 0
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      hits++
      res.writeHead(200, { 'content-type': 'text/plain' }).end('local service')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('is refused under --yes, and reached only with a grant naming the host', async () => {
    const s = scene()
    const [yes] = await s.run([{ name: 'web_fetch', input: { url } }], ['--yes'])
    expect(yes).toMatchObject({ ok: false, output: expect.stringContaining('127.0.0.1 resolves to 127.0.0.1, a loopback address.') })
    expect(hits).toBe(0)
    const [named] = await s.run([{ name: 'web_fetch', input: { url } }], ['--allow', 'web_fetch:127.0.0.1'])
    expect(named).toMatchObject({ ok: true, output: 'local service' })
    expect(hits).toBe(1)
  }, 60_000)
})
