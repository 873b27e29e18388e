import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TaskCard } from '../../src-shared'
import { podmanCli, podmanEngine, type TestEngine } from '../containers/testing/podman'
import { createHarness, toolParts, waitFor, type Harness } from '../testing/harness'
import { createHost, type Host } from './index'
import { bundleHostProcess, createFixture, startChildHost, type ChildHost, type Fixture } from './testing/child-host'

/**
 * `isolation: container` through a real host on a real engine (issue 29; Podman's Docker-compatible service): the
 * child's bash runs in its own container with the workspace mounted, no network, and nothing is left behind — not
 * when it ends, not when two run at once, not with a worktree, and not when the host is killed with -9.
 */
// The engine is started (or found) once, before the tests are collected: without Podman they are skipped, saying why.
const found = await podmanEngine()
const engine: TestEngine | undefined = 'reason' in found ? undefined : found
if (!engine) console.warn(`container isolation tests skipped: ${'reason' in found ? found.reason : ''}`)

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const containersOf = (label: string) => podmanCli(['ps', '-a', '--filter', `label=${label}`, '--format', '{{.Names}}']).trim()
const config = (extra: Record<string, unknown> = {}) => ({ containers: { engine: engine!.url, image: engine!.image, limits: { cpus: 1, memoryMb: 256, pids: 64 }, ...extra } })
const task = (isolation: string, prompt: string, description = 'Work in a box') => ({ name: 'task', input: { subagent_type: 'general', description, prompt, isolation } })
const bash = (command: string) => ({ name: 'bash', input: { command } })

function cardsOf(run: Awaited<ReturnType<Harness['run']>>): TaskCard[] {
  return toolParts(run.messages).filter((p) => p.type === 'tool-task').map((p) => p.data.subagent as TaskCard)
}

describe.skipIf(!engine)('a child with isolation: container', () => {
  it('runs its bash in its own container: the workspace mounted at the same path, no network, removed when it ends', async () => {
    h = await createHarness({
      permissions: '{ "*": "allow" }',
      config: config(),
      script: {
        agents: {
          build: [{ step: 1, tools: [task('container', 'write the marker')] }, { step: 2, text: 'Done.' }],
          general: [{ step: 1, tools: [bash('echo made-inside > marker.txt && ls /sys/class/net && pwd')] }, { step: 2, text: 'Wrote it.' }],
          '*': [{ text: 'Title', repeat: true }],
        },
      },
    })
    const run = await h.run('go')
    const [card] = cardsOf(run)
    expect(card).toMatchObject({ status: 'completed', container: { state: 'removed', image: engine!.image, network: false, limits: { cpus: 1, memoryMb: 256, pids: 64 } } })
    expect(fs.readFileSync(path.join(h.workdir, 'marker.txt'), 'utf8')).toBe('made-inside\n')
    const child = h.host.store.transcript.listMessages(card.taskId)
    const command = toolParts(child).find((p) => p.type === 'tool-bash')!
    // Only the loopback device: no network. The workspace is at the same path inside.
    expect(command.data.output).toBe(`lo\n${h.workdir}\nExit code: 0`)
    expect((command.data.metadata as { sandbox: unknown }).sandbox).toEqual({ mode: 'container', network: false, reason: `container agentry-${card.taskId}` })
    expect(containersOf(`agentry.session=${card.taskId}`)).toBe('')
  }, 120_000)

  it('two at once, one with a worktree of its own mounted in its container; both leave nothing behind', async () => {
    h = await createHarness({
      permissions: '{ "*": "allow" }',
      config: config(),
      files: { 'README.md': '# repo\n' },
      script: {
        agents: {
          build: [{ step: 1, tools: [task('container', 'one', 'First box'), task('worktree+container', 'two', 'Second box')] }, { step: 2, text: 'Both done.' }],
          general: [
            { match: 'one', step: 1, tools: [bash('echo one > one.txt && sleep 1')] },
            { match: 'two', step: 1, tools: [bash('echo two > two.txt && sleep 1')] },
            { step: 2, text: 'ok', repeat: true },
          ],
          '*': [{ text: 'Title', repeat: true }],
        },
      },
    })
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: h!.workdir, stdio: 'pipe' })
    git('init', '-q')
    git('add', '-A')
    git('commit', '-qm', 'start')
    const run = await h.run('go')
    const cards = cardsOf(run)
    expect(cards.map((c) => [c.description, c.status, c.container?.state])).toEqual([
      ['First box', 'completed', 'removed'],
      ['Second box', 'completed', 'removed'],
    ])
    // Two containers ran at the same time (each slept a second; both were there together).
    expect(fs.readFileSync(path.join(h.workdir, 'one.txt'), 'utf8')).toBe('one\n')
    // The worktree child wrote in its worktree (kept, with its branch), not in the workspace.
    expect(fs.existsSync(path.join(h.workdir, 'two.txt'))).toBe(false)
    expect(cards[1].worktree).toMatchObject({ state: 'kept' })
    expect(git('show', `${cards[1].worktree!.branch}:two.txt`).toString()).toBe('two\n')
    expect(containersOf(`agentry.root=${run.sessionId}`)).toBe('')
    // The run map says where each worked.
    const { nodes } = await h.host.api.calls['runs.map']({ rootSessionId: run.sessionId })
    expect(nodes.filter((n) => n.parentId !== null).map((n) => [n.label, n.where])).toEqual([
      ['First box', { container: engine!.image }],
      ['Second box', { container: engine!.image, worktree: cards[1].worktree!.branch }],
    ])
  }, 120_000)

  it('an agent file asks for it (a list, as Claude Code-style files write isolation); the call need not', async () => {
    h = await createHarness({
      permissions: '{ "*": "allow" }',
      config: config(),
      script: {
        agents: {
          build: [{ step: 1, tools: [{ name: 'task', input: { subagent_type: 'boxed', description: 'Boxed work', prompt: 'go' } }] }, { step: 2, text: 'Done.' }],
          boxed: [{ step: 1, tools: [bash('ls /sys/class/net')] }, { step: 2, text: 'ok' }],
          '*': [{ text: 'Title', repeat: true }],
        },
      },
    })
    h.writeAgent('boxed', { mode: 'subagent', isolation: ['container'] })
    const run = await h.run('go')
    const [card] = cardsOf(run)
    expect(card).toMatchObject({ status: 'completed', container: { state: 'removed' } })
  }, 120_000)

  it('a missing engine is the task\'s error, naming how to start one; the child never runs on the host', async () => {
    h = await createHarness({
      permissions: '{ "*": "allow" }',
      config: config({ engine: 'unix:///nonexistent/agentry-no-engine.sock' }),
      script: {
        agents: {
          build: [{ step: 1, tools: [task('container', 'write the marker')] }, { step: 2, text: 'Could not.' }],
          general: [{ step: 1, tools: [bash('echo on-host > marker.txt')] }, { step: 2, text: 'Wrote it.' }],
          '*': [{ text: 'Title', repeat: true }],
        },
      },
    })
    const run = await h.run('go')
    const [card] = cardsOf(run)
    expect(card.status).toBe('failed')
    expect(card.error).toMatch(/^isolation "container": No container engine at unix:\/\/\/nonexistent\/agentry-no-engine\.sock/)
    expect(fs.existsSync(path.join(h.workdir, 'marker.txt'))).toBe(false)
    const status = await h.host.api.calls['containers.status']({})
    expect(status).toMatchObject({ ok: false, engine: 'unix:///nonexistent/agentry-no-engine.sock', image: { name: engine!.image } })
    expect(status.message).toMatch(/No container engine at/)
  }, 60_000)

  it('reports the engine, the image and the limits', async () => {
    h = await createHarness({ config: config() })
    expect(await h.host.api.calls['containers.status']({})).toMatchObject({ ok: true, kind: 'podman', engine: engine!.url, image: { name: engine!.image, present: true }, limits: { cpus: 1, memoryMb: 256, pids: 64 } })
  }, 60_000)
})

describe.skipIf(!engine)('a host killed with -9 while a child runs in a container', () => {
  let bundle: { file: string; dispose(): void }
  let fixture: Fixture | undefined
  let child: ChildHost | undefined
  let host: Host | undefined
  beforeAll(async () => {
    bundle = await bundleHostProcess()
  }, 60_000)
  afterAll(() => bundle?.dispose())
  afterEach(async () => {
    await child?.kill()
    await host?.stop()
    if (fixture) fs.rmSync(fixture.root, { recursive: true, force: true })
  })

  it('leaves its container, which the next host finds by label and removes', async () => {
    fixture = createFixture({
      permissions: '{ "*": "allow" }',
      config: config(),
      script: {
        agents: {
          build: [{ step: 1, tools: [task('container', 'wait')] }, { step: 2, text: 'Done.' }],
          general: [{ step: 1, tools: [bash('sleep 60')] }, { step: 2, text: 'Waited.' }],
          '*': [{ text: 'Title', repeat: true }],
        },
      },
    })
    child = await startChildHost(bundle.file, fixture, { prompt: 'go' })
    const root = child.sessionId!
    await waitFor(() => containersOf(`agentry.root=${root}`) !== '', 60_000)
    await child.kill()
    child = undefined
    expect(containersOf(`agentry.root=${root}`)).not.toBe('')
    host = await createHost({ dataDir: fixture.dataDir, defaultWorkspace: fixture.workdir, retryDelayMs: 1 })
    await waitFor(() => containersOf(`agentry.root=${root}`) === '', 60_000)
    // Said in the host log (written once the engine has answered).
    const logFile = path.join(fixture.dataDir, 'logs', 'host.log')
    const said = await waitFor(() => fs.existsSync(logFile) && fs.readFileSync(logFile, 'utf8'), 10_000)
    expect(said).toMatch(/removed 1 container\(s\) left by a host that stopped without cleaning up: agentry-ses_/)
    expect(fs.existsSync(path.join(fixture.dataDir, 'containers-started'))).toBe(false)
  }, 180_000)
})
