import { afterEach, describe, expect, it } from 'vitest'
import type { BridgeCallName, CallOutput } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'
import { setBridge } from './bridge'
import { useSettings } from './settings-store'
import { loadSettings } from './workspace-actions'

type Settings = CallOutput<'settings.get'>

/** A host that answers settings.get with whatever `current` holds now (only the calls loadSettings makes). */
function hostWith(current: { settings: Settings }): BridgeClient {
  const answers: Partial<Record<BridgeCallName, () => unknown>> = {
    'settings.get': () => structuredClone(current.settings),
    'rules.list': () => ({ rules: [] }),
  }
  return {
    call: async (name: BridgeCallName) => {
      const answer = answers[name]
      if (!answer) throw new Error(`unexpected call ${name}`)
      return { ok: true, data: answer() }
    },
  } as unknown as BridgeClient
}

const settings = (smallModel: string | null) => ({ defaultModel: 'script/e2e', smallModel, providers: [] }) as unknown as Settings

describe('reloading Settings', () => {
  it('Refresh reseeds the forms even when nothing changed (it discards what was typed)', async () => {
    setBridge(hostWith({ settings: settings('script/mini') }))
    await loadSettings()
    const before = useSettings.getState().version
    await loadSettings({ reseed: 'always' })
    expect(useSettings.getState().version).toBe(before + 1)
  })

  afterEach(() => useSettings.setState({ settings: null, rules: [], loadError: null, version: 0 }))

  it('opening Settings with the same answer keeps the sections (and what the person is typing in them)', async () => {
    const host = { settings: settings('script/mini') }
    setBridge(hostWith(host))
    await loadSettings()
    const before = useSettings.getState().version
    await loadSettings({ reseed: 'if-changed' })
    expect(useSettings.getState().version).toBe(before)
  })

  it('opening Settings with a changed answer remounts them with the new values', async () => {
    const host = { settings: settings('script/mini') }
    setBridge(hostWith(host))
    await loadSettings()
    const before = useSettings.getState().version
    host.settings = settings(null)
    await loadSettings({ reseed: 'if-changed' })
    expect(useSettings.getState().version).toBe(before + 1)
    expect(useSettings.getState().settings?.smallModel).toBeNull()
  })
})
