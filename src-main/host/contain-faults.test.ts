import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { HostError } from '../../src-shared'
import { dispatchCall } from '../bridge'
import { createMemoryHostApi } from '../bridge/testing'
import { AgentFileError } from '../agents'
import { ApprovalError } from '../approvals'
import { RunnerError } from '../sessions'
import { StoreError } from '../store'
import { TrustError } from '../trust'
import { createHarness, waitFor, type Harness } from '../testing/harness'
import { containCallFaults } from './contain-faults'
import { openHostLog } from './host-log'
import { healthProblems, settleHost } from './testing/settled-state'

let h: Harness | undefined
const dirs: string[] = []
afterEach(async () => {
  await h?.close()
  h = undefined
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

describe('a fault in one call is contained', () => {
  it('answers `internal` with an id that is in the log; expected errors pass through; a row gone meanwhile is not_found', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-fence-'))
    dirs.push(dir)
    const log = openHostLog(dir, { echo: () => {} })
    const api = containCallFaults(
      createMemoryHostApi({
        calls: {
          'sessions.list': async () => {
            throw new TypeError("Cannot read properties of undefined (reading 'id')")
          },
          'sessions.get': async () => {
            throw new HostError('not_found', 'No session ses_x.')
          },
          'sessions.rename': async () => {
            throw new StoreError('not_found', 'updateSession: no session with id "ses_y"')
          },
        },
      }),
      log,
    )
    const bad = await dispatchCall(api, 'sessions.list', {})
    expect(bad.ok).toBe(false)
    const message = !bad.ok ? bad.error.message : ''
    expect(!bad.ok && bad.error.code).toBe('internal')
    const id = /\((E-[0-9a-f]{8})\)/.exec(message)?.[1]
    expect(id, message).toBeDefined()
    expect(message).toContain(log.file)
    expect(fs.readFileSync(log.file, 'utf8')).toContain(`${id} fault in bridge call sessions.list: TypeError: Cannot read properties of undefined`)
    expect(await dispatchCall(api, 'sessions.get', { sessionId: 'ses_x' })).toEqual({ ok: false, error: { code: 'not_found', message: 'No session ses_x.' } })
    const gone = await dispatchCall(api, 'sessions.rename', { sessionId: 'ses_y', title: 't' })
    expect(gone).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringMatching(/^no session with id "ses_y"\. It may have been deleted/) } })
    expect(log.faults).toBe(1)
  })
})

describe("the layers' expected failures", () => {
  it('are answered with their own code and message, and are not logged as faults', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-fence-'))
    dirs.push(dir)
    const log = openHostLog(dir, { echo: () => {} })
    const cases = {
      'messages.prompt': new RunnerError('conflict', 'This session is being deleted or archived right now.'),
      'approvals.answer': new ApprovalError('not_found', 'No approval apr_1 (it may have been answered already).'),
      'agents.create': new AgentFileError('invalid_request', 'name: use letters, digits and dashes.'),
      'trust.set': new TrustError('AGENTS.md changed since it was shown.'),
    } as const
    const calls = Object.fromEntries(
      Object.entries(cases).map(([name, err]) => [
        name,
        async () => {
          throw err
        },
      ]),
    )
    const api = containCallFaults(createMemoryHostApi({ calls }), log)
    for (const [name, err] of Object.entries(cases)) {
      const answer = await api.calls[name as keyof typeof cases]({} as never).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(HostError.isInstance(answer), name).toBe(true)
      expect(answer).toMatchObject({ code: err.code, message: err.message })
    }
    expect(log.faults).toBe(0)
  })
})

describe('a fault in one run is contained', () => {
  it('a run whose session row vanishes under it (not through a call) ends; the fault is logged; the host goes on', async () => {
    const slow = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ')
    h = await createHarness({ script: { agents: { build: [{ match: 'slow', text: slow, chunkDelayMs: 20 }, { text: 'fine', repeat: true }], '*': [{ text: 't', repeat: true }] } } })
    const { sessionId } = await h.run('slow', { wait: false })
    await waitFor(() => h!.events.some((e) => e.event.type === 'content_delta'))
    // Something outside the calls removes the rows (a bug, a manual edit): the run cannot write anywhere any more.
    h.host.store.sessions.deleteSession(sessionId)
    await settleHost(h.host)
    await new Promise((r) => setTimeout(r, 50))
    expect(h.host.runner.isRunning(sessionId)).toBe(false)
    expect(h.host.log.faults).toBeGreaterThanOrEqual(1)
    expect(fs.readFileSync(h.host.log.file, 'utf8')).toMatch(new RegExp(`fault in run of ${sessionId}`))
    expect(healthProblems(h.host)).toEqual([])
    const next = await h.run('hello')
    expect(next.final?.finishReason).toBe('stop')
  })
})
