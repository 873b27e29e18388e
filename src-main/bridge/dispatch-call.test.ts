import { PROMPT_MAX_CHARS } from '../../src-shared/limits'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { BridgeCalls, type BridgeCallName, HostError, type HostCalls } from '../../src-shared'
import { dispatchCall } from './dispatch-call'
import { createMemoryHostApi } from './testing'

const names = Object.keys(BridgeCalls) as BridgeCallName[]

/** A host whose every method records that it ran — so a rejected payload can be shown to never reach it. */
function recordingHost() {
  const ran: string[] = []
  const calls = Object.fromEntries(
    names.map((n) => [
      n,
      async () => {
        ran.push(n)
        return {}
      },
    ]),
  ) as unknown as HostCalls
  return { api: createMemoryHostApi({ calls }), ran }
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('dispatchCall: requests the host must refuse', () => {
  it('rejects unknown and inherited call names with invalid_request naming the call', async () => {
    const { api, ran } = recordingHost()
    for (const name of ['sessions.nuke', 'toString', '__proto__', 'constructor']) {
      const r = await dispatchCall(api, name, {})
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
      if (!r.ok) expect(r.error.message).toContain(JSON.stringify(name))
    }
    const r = await dispatchCall(api, 42, {})
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toContain('a number')
    expect(ran).toEqual([])
  })

  it('rejects, for every call, non-object input and unknown extra keys without running the host', async () => {
    const { api, ran } = recordingHost()
    for (const name of names) {
      for (const bad of [null, 'x', 7, [], { __extra: true }]) {
        const r = await dispatchCall(api, name, bad)
        expect(r, `${name} with ${JSON.stringify(bad)}`).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
        if (!r.ok) expect(r.error.message).toContain(`"${name}"`)
      }
    }
    expect(ran).toEqual([])
  })

  it('names the field and what was expected for wrong types, oversized strings and extra keys', async () => {
    const { api } = recordingHost()
    const wrongType = await dispatchCall(api, 'sessions.get', { sessionId: 12 })
    expect(wrongType.ok).toBe(false)
    if (!wrongType.ok) expect(wrongType.error.message).toMatch(/input\.sessionId: must be a string, not a number$/)

    const huge = 'x'.repeat(PROMPT_MAX_CHARS + 1)
    const tooBig = await dispatchCall(api, 'messages.prompt', { sessionId: 's', requestId: 'r', text: huge })
    expect(tooBig.ok).toBe(false)
    if (!tooBig.ok) {
      expect(tooBig.error.message).toMatch(/input\.text: .*4000000/)
      // The payload itself is never echoed back.
      expect(tooBig.error.message.length).toBeLessThan(700)
    }

    const extra = await dispatchCall(api, 'sessions.rename', { sessionId: 's', title: 't', admin: true })
    expect(extra.ok).toBe(false)
    if (!extra.ok) expect(extra.error.message).toContain('admin')

    const nested = await dispatchCall(api, 'approvals.answer', { approvalId: 'a', decision: 'allow_once', patterns: ['ok', ''] })
    expect(nested.ok).toBe(false)
    if (!nested.ok) expect(nested.error.message).toContain('input.patterns[1]')
  })
})

describe('dispatchCall: running calls', () => {
  it('passes the parsed input to the host and returns its data', async () => {
    const api = createMemoryHostApi({
      calls: { 'workspaces.open': async ({ root }) => ({ root: `${root}/resolved` }) },
    })
    expect(await dispatchCall(api, 'workspaces.open', { root: '/tmp/w' })).toEqual({ ok: true, data: { root: '/tmp/w/resolved' } })
  })

  it('turns a HostError into its own code, message and data', async () => {
    const api = createMemoryHostApi({
      calls: {
        'sessions.get': async ({ sessionId }) => {
          throw new HostError('not_found', `No session "${sessionId}".`, { sessionId })
        },
      },
    })
    expect(await dispatchCall(api, 'sessions.get', { sessionId: 'nope' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No session "nope".', data: { sessionId: 'nope' } },
    })
  })

  it('turns any other failure into `internal` without leaking its message, and logs the stack once', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const api = createMemoryHostApi({
      calls: {
        'rules.revoke': async () => {
          throw new TypeError('secret /home/me/.ssh detail')
        },
      },
    })
    const r = await dispatchCall(api, 'rules.revoke', { ruleId: 'r1' })
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } })
    if (!r.ok) {
      expect(r.error.message).toContain('rules.revoke')
      expect(r.error.message).not.toContain('secret')
    }
    expect(logged).toHaveBeenCalledTimes(1)
    expect(String(logged.mock.calls[0].join(' '))).toContain('secret /home/me/.ssh detail')
  })

  it('checks the output against the contract when asked (tests, --debug), and skips it otherwise', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const api = createMemoryHostApi({
      calls: { 'workspaces.open': async () => ({ root: 5 }) as unknown as { root: string } },
    })
    const checked = await dispatchCall(api, 'workspaces.open', { root: '/w' }, { validateOutput: true })
    expect(checked).toMatchObject({ ok: false, error: { code: 'internal' } })
    if (!checked.ok) expect(checked.error.message).toMatch(/Output of "workspaces.open".*output\.root/)
    expect(await dispatchCall(api, 'workspaces.open', { root: '/w' }, { validateOutput: false })).toEqual({ ok: true, data: { root: 5 } })
    // The default is the same everywhere (no sniffing of the test runner): off.
    expect(await dispatchCall(api, 'workspaces.open', { root: '/w' })).toEqual({ ok: true, data: { root: 5 } })
  })
})
