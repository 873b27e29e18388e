import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CallOutput } from '../../src-shared'
import { dispatchCall } from '../bridge/dispatch-call'
import { createHarness, type Harness } from '../testing/harness'

/** The bridge side of trust and of unusable rules files, on the real host (outputs checked against the contract). */
let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

async function call<N extends 'trust.get' | 'trust.set' | 'settings.get' | 'sessions.get'>(name: N, input: unknown): Promise<CallOutput<N>> {
  const r = await dispatchCall(h!.host.api, name, input, { validateOutput: true })
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code })
  return r.data as CallOutput<N>
}

describe('trust over the bridge', () => {
  it('get shows the files and what they change; set pins them; a stale view is refused; revoke', async () => {
    h = await createHarness({
      files: {
        '.agents/permissions.jsonc': '{ "bash": "allow", "read_file": { "secrets/**": "deny" } }',
        '.agents/config.yaml': 'providers:\n  anthropic: { type: openai-compatible, baseURL: "http://127.0.0.1:9/v1" }\n',
      },
      config: { providers: { anthropic: { type: 'anthropic' } } },
    })
    const { trust } = await call('trust.get', { workspaceRoot: h.workdir })
    expect(trust.status).toBe('untrusted')
    const rules = trust.files.find((f) => f.path === '.agents/permissions.jsonc')!
    expect(rules.changes).toEqual([
      { kind: 'loosens', text: 'bash: allow — your rules say ask', needsTrust: true },
      { kind: 'tightens', text: 'read_file "secrets/**": deny — stricter than your rules (allow)', needsTrust: false },
    ])
    const cfg = trust.files.find((f) => f.path === '.agents/config.yaml')!
    expect(cfg.changes).toEqual([expect.objectContaining({ kind: 'provider', text: expect.stringMatching(/^redefines provider anthropic: openai-compatible at http:\/\/127\.0\.0\.1:9\/v1/), needsTrust: true })])

    // Settings' provider list says the workspace redefined it, and why the key stays home.
    const settings = await call('settings.get', { workspaceRoot: h.workdir })
    expect(settings.providers.find((p) => p.name === 'anthropic')?.workspace).toMatchObject({ redefined: true, keysWithheld: expect.stringMatching(/changed where this provider sends requests/) })

    const shown = trust.files.map((f) => ({ path: f.path, sha256: f.sha256 }))
    fs.writeFileSync(path.join(h.workdir, '.agents/permissions.jsonc'), '{ "*": "allow" }')
    await expect(call('trust.set', { workspaceRoot: h.workdir, trusted: true, files: shown })).rejects.toMatchObject({ code: 'conflict' })
    const fresh = (await call('trust.get', { workspaceRoot: h.workdir })).trust
    const set = await call('trust.set', { workspaceRoot: h.workdir, trusted: true, files: fresh.files.map((f) => ({ path: f.path, sha256: f.sha256 })) })
    expect(set.trust.status).toBe('trusted')
    expect((await call('settings.get', { workspaceRoot: h.workdir })).providers.find((p) => p.name === 'anthropic')?.workspace?.keysWithheld).toBeNull()
    expect((await call('trust.set', { workspaceRoot: h.workdir, trusted: false })).trust.status).toBe('untrusted')
    await expect(call('trust.get', { workspaceRoot: path.join(h.workdir, 'nope') })).rejects.toMatchObject({ code: 'not_found' })
  })
})

describe('an unusable rules file', () => {
  it('100k levels deep in the workspace: turns still finish, settings.get answers, the session keeps one notice', async () => {
    h = await createHarness({
      headless: true,
      files: { '.agents/permissions.jsonc': `{"bash": ${'['.repeat(100_000)}${']'.repeat(100_000)}}` },
      script: { agents: { build: [{ step: 1, repeat: true, tools: [{ name: 'read_file', input: { path: 'x' } }] }, { step: 2, repeat: true, text: 'fine' }], '*': [{ text: 'T', repeat: true }] } },
    })
    const first = await h.run('one')
    expect(first.final?.finishReason).toBe('stop')
    await h.run('two', { sessionId: first.sessionId })
    const settings = await call('settings.get', { workspaceRoot: h.workdir })
    expect(settings.permissionErrors).toEqual([{ file: path.join(h.workdir, '.agents/permissions.jsonc'), reason: expect.stringMatching(/nesting deeper than 32 levels at line 1/) }])
    // Stored with the session: what a reloaded page gets back. Once, not once per prompt.
    const { messages } = await call('sessions.get', { sessionId: first.sessionId })
    const notices = messages.filter((m) => m.metadata.notice === 'rules_malformed')
    expect(notices).toHaveLength(1)
    expect(String(notices[0].parts[0].data.text)).toContain(`${path.join(h.workdir, '.agents/permissions.jsonc')}: nesting deeper than 32 levels`)
    // The model is never shown the notice.
    const tool = messages.flatMap((m) => m.parts).find((p) => p.type.startsWith('tool-'))
    expect(String(tool?.data.error)).toMatch(/Permission denied: read_file needs approval \(asks because .*could not be used/)
  })
})
