import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { toolParts } from '../testing/harness'
import { processesWith, waitUntil } from '../tools/testing/processes'
import { createHost, RESTART_REASON, type Host } from './index'
import { bundleHostProcess, createFixture, startChildHost, type ChildHost, type Fixture } from './testing/child-host'

/**
 * Issue 10: bash commands must not outlive their host. A real host in a child process runs
 * `touch started; sleep 3.x; touch marker` and is killed with SIGKILL mid-sleep: the sleep must be gone at once,
 * the marker must never appear, and the restarted host's "aborted by host restart" must be true. Both with the
 * sandbox (bubblewrap --die-with-parent) and without it (the watchdog).
 */
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

describe.each([
  ['sandboxed', true],
  ['unconfined', false],
])('bash dies with its host (%s)', (_mode, enabled) => {
  it('kill -9 of the host mid-command: no marker, no process left, and the call is recorded as aborted by the restart', async () => {
    const sleep = `sleep 3.${process.pid % 1000}${enabled ? 1 : 2}`
    fixture = createFixture({
      config: { sandbox: { enabled } },
      permissions: '{ "*": "allow" }',
      script: {
        agents: {
          build: [{ step: 1, tools: [{ name: 'bash', input: { command: `touch started; ${sleep}; touch marker` } }] }, { step: 2, text: 'never' }],
          title: [{ text: 'Lifetime test', repeat: true }],
        },
      },
    })
    const started = path.join(fixture.workdir, 'started')
    child = await startChildHost(bundle.file, fixture, { prompt: 'run it' })
    await child.until(() => fs.existsSync(started), 'the command to start', 10_000)
    expect(await waitUntil(() => processesWith(sleep).length === 1, 5_000)).toBe(true)
    // Delivered events are committed: the restarted host will find the call.
    await child.until(() => child!.events.some((e) => e.event.type === 'tool_call_start'), 'the tool_call_start event')

    await child.kill()
    expect(await waitUntil(() => processesWith(sleep).length === 0, 2_000)).toBe(true)
    // Longer than the sleep: had anything survived, the marker would be there by now.
    await new Promise((resolve) => setTimeout(resolve, 4_000))
    expect(fs.existsSync(path.join(fixture.workdir, 'marker'))).toBe(false)
    expect(processesWith(sleep)).toEqual([])

    host = await createHost({ dataDir: fixture.dataDir, defaultWorkspace: fixture.workdir, retryDelayMs: 1 })
    const [tool] = toolParts(host.store.listMessages(child.sessionId!))
    expect(tool).toMatchObject({ type: 'tool-bash', toolState: 'output-error', data: { error: RESTART_REASON } })
  })
})
