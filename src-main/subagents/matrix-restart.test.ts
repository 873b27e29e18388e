import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SequencedEvent } from '../../src-shared'
import { createHost, type Host } from '../host'
import { bundleHostProcess, createFixture, startChildHost, type ChildHost, type Fixture } from '../host/testing/child-host'
import { expectCase } from './testing/matrix-expect'
import { MATRIX_AGENTS, MATRIX_PERMISSIONS } from './testing/matrix-fixture'
import { leafRunning, leftovers, rootStatus, streamOf } from './testing/matrix-inspect'
import { caseReplies, rootPrompt, scriptFor } from './testing/matrix-script'
import { depthOf, matrixCases } from './testing/matrix-table'

/**
 * The matrix's host-restart row: every case runs in one real host in a child process, which is SIGKILLed once each
 * case's last child is running (in the background: once the root's own turn is over, so only the child is in
 * flight). A new host on the same data dir reconciles; every case is then checked like the in-process ones.
 */
const CASES = matrixCases(['restart'])

describe('matrix: restart', () => {
  let bundle: { file: string; dispose(): void }
  let fixture: Fixture
  let child: ChildHost | undefined
  let host: Host
  const roots = new Map<string, string>()
  const events: SequencedEvent[] = []

  beforeAll(async () => {
    bundle = await bundleHostProcess()
    fixture = createFixture({ agents: MATRIX_AGENTS, permissions: MATRIX_PERMISSIONS, script: scriptFor(CASES.flatMap(caseReplies)) })
    child = await startChildHost(bundle.file, fixture, { prompts: CASES.map((c) => ({ text: rootPrompt(c) })) })
    CASES.forEach((c, i) => roots.set(c.id, child!.sessionIds[i]))
    const inFlight = () =>
      CASES.every((c) => {
        const stream = streamOf(child!.events, roots.get(c.id)!)
        return leafRunning(stream, depthOf(c)) && (c.mode === 'blocking' || rootStatus(stream) === 'idle')
      })
    await child.until(inFlight, 'every last child running', 20_000)
    await child.kill()
    host = await createHost({ dataDir: fixture.dataDir, defaultWorkspace: fixture.workdir, retryDelayMs: 1 })
    // What a viewer of each conversation receives when it comes back from seq 0: the whole stored stream.
    for (const rootId of roots.values()) host.api.subscribe({ sessionId: rootId, afterSeq: 0 }, (m) => m.kind === 'event' && events.push(m.event))()
  }, 60_000)
  afterAll(async () => {
    await child?.kill()
    await host?.stop()
    fixture?.remove()
    bundle?.dispose()
  })

  it('leaves nothing running, queued or waiting; every conversation was told', () => {
    expect(leftovers(host.store, [...roots.values()])).toEqual({ busy: [], openParts: [], nestedOpen: [], jobs: [], queued: [], cards: [], approvals: [] })
    expect(host.reconcileReport.backgroundJobs).toBe(CASES.filter((c) => c.mode === 'background').length)
  })

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await expectCase({ host, events, roots }, c)
  })
})
