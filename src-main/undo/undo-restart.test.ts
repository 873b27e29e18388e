import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createHost, type Host } from '../host'
import { bundleHostProcess, createFixture, startChildHost, type ChildHost, type Fixture } from '../host/testing/child-host'

/** Issue 24: a host killed (-9) in the middle of a turn that changed files; the next host can still undo that turn. */
let bundle: { file: string; dispose(): void }
beforeAll(async () => {
  bundle = await bundleHostProcess()
})
afterAll(() => bundle.dispose())

let fixture: Fixture | undefined
let child: ChildHost | undefined
let host: Host | undefined
afterEach(async () => {
  await child?.kill()
  await host?.stop()
  if (fixture) fs.rmSync(fixture.root, { recursive: true, force: true })
  fixture = child = host = undefined
})

describe('checkpoints across kill -9', () => {
  it('the turn the host died in gets the workspace as found on restart as its after; undo then restores its files', async () => {
    fixture = createFixture({
      permissions: '{ "*": "allow" }',
      files: { 'a.txt': 'a0\n' },
      script: {
        agents: {
          build: [{ step: 1, tools: [{ name: 'write_file', input: { path: 'a.txt', content: 'a1\n' } }, { name: 'write_file', input: { path: 'new.txt', content: 'new\n' } }, { name: 'bash', input: { command: 'sleep 60', description: 'wait' } }] }, { text: 'done', repeat: true }],
          title: [{ text: 'Kill test', repeat: true }],
        },
      },
    })
    child = await startChildHost(bundle.file, fixture, { prompt: 'change things' })
    const ended = (name: string) => child!.events.filter((e) => e.event.type === 'tool_call_end' && e.event.toolName === name).length
    await child.until(() => ended('write_file') === 2 && child!.events.some((e) => e.event.type === 'tool_call_start' && e.event.toolName === 'bash'), 'both writes done, bash running')
    const sessionId = child.sessionId!
    expect(fs.readFileSync(path.join(fixture.workdir, 'a.txt'), 'utf8')).toBe('a1\n')
    await child.kill()
    child = undefined

    host = await createHost({ dataDir: fixture.dataDir, defaultWorkspace: fixture.workdir, retryDelayMs: 1 })
    const { turns } = await host.api.calls['changes.list']({ sessionId })
    expect(turns).toHaveLength(1)
    expect(turns[0].state).toBe('applied')
    expect(turns[0].files.map((f) => `${f.status} ${f.path} ${f.authors.map((a) => a.agentPath.join('›')).join(',')}`)).toEqual(['modified a.txt build', 'added new.txt build'])
    const r = await host.api.calls['changes.undo']({ sessionId })
    expect(r).toMatchObject({ applied: true, conflicts: [] })
    expect(fs.readFileSync(path.join(fixture.workdir, 'a.txt'), 'utf8')).toBe('a0\n')
    expect(fs.existsSync(path.join(fixture.workdir, 'new.txt'))).toBe(false)
    // The sandbox's placeholder for the missing .mcp.json, left by the killed command, is gone too.
    expect(fs.existsSync(path.join(fixture.workdir, '.mcp.json'))).toBe(false)
  })
})
