import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable'
import { describe, expect, it } from 'vitest'
import type { CommandEntry } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'
import { CommandAnnouncer } from './commands-update'

const cmd = (name: string, description = name): CommandEntry => ({ name, description, source: 'person', allowedTools: [], warnings: [] })

/** A host whose `commands.list` answers with `current` (or fails with `fail`), after a tick. */
function fakeHost() {
  const state = { current: [cmd('help')], fail: undefined as string | undefined, calls: 0 }
  const api = {
    calls: {
      'commands.list': async () => {
        state.calls++
        await new Promise((r) => setTimeout(r, 5))
        if (state.fail) throw new Error(state.fail)
        return { commands: state.current, errors: [], untrusted: 0 }
      },
    },
  } as unknown as BridgeClient
  return { state, api: async () => api, client: api }
}

function announcer() {
  const sent: { sessionId: string; update: SessionUpdate }[] = []
  const logs: string[] = []
  const a = new CommandAnnouncer((sessionId, update) => sent.push({ sessionId, update }), (m) => logs.push(m))
  const names = () => sent.map((s) => (s.update.sessionUpdate === 'available_commands_update' ? s.update.availableCommands.map((c) => c.name) : []))
  return { a, sent, logs, names }
}

describe('CommandAnnouncer', () => {
  it('sends a list only when it differs from the one the session last received', async () => {
    const h = fakeHost()
    const { a, names } = announcer()
    await a.refresh(h.api, 's1', '/w')
    await a.refresh(h.api, 's1', '/w')
    expect(names()).toEqual([['help']])
    h.state.current = [cmd('help'), cmd('deploy')]
    await a.refresh(h.api, 's1', '/w')
    // An edited description is a change too.
    h.state.current = [cmd('help'), cmd('deploy', 'Deploy it')]
    await a.refresh(h.api, 's1', '/w')
    await a.refresh(h.api, 's1', '/w')
    expect(names()).toEqual([['help'], ['help', 'deploy'], ['help', 'deploy']])
  })

  it('looks of one session never overlap: two at once send one list; each session has its own', async () => {
    const h = fakeHost()
    const { a, sent } = announcer()
    await Promise.all([a.refresh(h.api, 's1', '/w'), a.refresh(h.api, 's1', '/w'), a.refresh(h.api, 's2', '/w')])
    expect(sent.map((s) => s.sessionId).sort()).toEqual(['s1', 's2'])
  })

  it('a session opened again gets its list even when unchanged; a failed look is logged and sends nothing', async () => {
    const h = fakeHost()
    const { a, sent, logs } = announcer()
    await a.refresh(h.api, 's1', '/w')
    a.opened(h.client, 's1', '/w')
    await new Promise((r) => setTimeout(r, 30))
    expect(sent).toHaveLength(2)
    h.state.fail = 'host gone'
    await a.refresh(h.api, 's1', '/w')
    expect(sent).toHaveLength(2)
    expect(logs).toEqual(['session s1: could not list commands: host gone'])
  })
})
