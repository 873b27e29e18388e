import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, waitFor, type Harness } from '../testing/harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

describe('settings: the small model', () => {
  it('settings.get shows it, settings.update sets and clears it in config.yaml, and the next title uses it', async () => {
    h = await createHarness({ script: { agents: { build: [{ text: 'hi', repeat: true }], title: [{ text: 'Session model title', repeat: true }] } } })
    const small = path.join(h.dataDir, 'small.yaml')
    fs.writeFileSync(small, 'agents:\n  title: [ { text: "Small model title", repeat: true } ]\n')
    expect((await h.host.api.calls['settings.get']({})).smallModel).toBeNull()
    // a provider for the small model, then the setting itself
    const config = path.join(h.dataDir, 'config.yaml')
    const text = fs.readFileSync(config, 'utf8').replace('providers:\n', `providers:\n  small:\n    type: script\n    script: ${small}\n`)
    fs.writeFileSync(config, text)
    await h.host.api.calls['settings.update']({ smallModel: 'small/mini' })
    expect((await h.host.api.calls['settings.get']({})).smallModel).toBe('small/mini')
    expect(fs.readFileSync(config, 'utf8')).toMatch(/^smallModel: small\/mini$/m)

    const first = await h.run('first session')
    await waitFor(() => h!.host.store.sessions.getSession(first.sessionId)?.title === 'Small model title')

    await h.host.api.calls['settings.update']({ smallModel: null })
    expect((await h.host.api.calls['settings.get']({})).smallModel).toBeNull()
    expect(fs.readFileSync(config, 'utf8')).not.toContain('smallModel')
    const second = await h.run('second session')
    await waitFor(() => h!.host.store.sessions.getSession(second.sessionId)?.title === 'Session model title')
  })

  it('an invalid value is refused with the field and the reason, and the file is left as it was', async () => {
    h = await createHarness({})
    const config = path.join(h.dataDir, 'config.yaml')
    const before = fs.readFileSync(config, 'utf8')
    await expect(h.host.api.calls['settings.update']({ smallModel: 'no-slash' })).rejects.toMatchObject({
      code: 'config_error',
      message: expect.stringMatching(/smallModel: Write it as provider\/model/),
      data: { fields: { smallModel: expect.stringMatching(/provider\/model/) } },
    })
    expect(fs.readFileSync(config, 'utf8')).toBe(before)
  })
})
