import { describe, expect, it } from 'vitest'
import { switchedAgentOf } from './chip-agent'
import { modelChoices, type ModelList } from './models-store'
import { emptyTranscript, type Transcript } from './transcript-model'

const lists: Record<string, ModelList> = {
  local: { state: 'ok', models: [{ id: 'qwen-coder', name: 'Qwen Coder' }, { id: 'llama-3', name: null }], note: null },
  demo: { state: 'ok', models: [{ id: 'echo', name: 'Offline demo' }], note: null },
  broken: { state: 'error', message: 'HTTP 401' },
}

describe('model picker choices', () => {
  it.each([
    ['', ['local/qwen-coder', 'local/llama-3', 'demo/echo']],
    ['qwen', ['local/qwen-coder']],
    ['offline', ['demo/echo']],
    ['local/llama-3', ['local/llama-3']],
    // free text: a provider/model the lists do not have leads, so any model the provider serves can be used
    ['local/my-finetune', ['local/my-finetune']],
    ['broken/gpt-x', ['broken/gpt-x']],
    ['not a ref', []],
  ])('%j → %j', (query, expected) => {
    expect(modelChoices(query, lists, ['local', 'demo', 'broken']).map((c) => c.model)).toEqual(expected)
  })

  it('marks the typed entry as typed', () => {
    expect(modelChoices('local/x', lists, ['local'])[0]).toMatchObject({ model: 'local/x', typed: true, provider: 'local' })
  })
})

function withUserAt(at: number | null): Transcript {
  const t = emptyTranscript('s', true)
  if (at === null) return t
  t.messageIds = ['u']
  t.messages.set('u', { id: 'u', sessionId: 's', role: 'user', metadata: {}, createdAt: at, updatedAt: at, parts: [] })
  return t
}

describe('agent chip after plan_exit', () => {
  it.each([
    // [activeAgent, activeAgentSince, last user message at, expected]
    [undefined, undefined, 100, null],
    ['build', 200, 100, 'build'], // approved plan_exit after the last message: the next turn runs as build
    ['build', 50, 100, null], // the person sent a message (to some agent) after the switch: that message's agent wins
    ['build', 200, null, 'build'],
    ['build', undefined, 100, 'build'],
  ])('activeAgent=%s since=%s, last message at %s → %s', (active, since, at, expected) => {
    const metadata: Record<string, unknown> = {}
    if (active !== undefined) metadata.activeAgent = active
    if (since !== undefined) metadata.activeAgentSince = since
    expect(switchedAgentOf({ metadata }, withUserAt(at))).toBe(expected)
  })
})
