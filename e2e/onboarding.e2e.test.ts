import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedChatServer, type ScriptedChatServer } from '../src-main/models/testing/scripted-chat-server'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/**
 * Issue 28, onboarding: a new person on the offline demo adds a real provider and picks one of its models. The
 * welcome stops talking about the demo, the pick becomes the default (the next session does not go back to the demo),
 * "Add a real provider" is no longer offered, and Settings' default model offers the provider's models.
 */
describe('from the offline demo to a real provider', () => {
  let s: Scenario
  let server: ScriptedChatServer
  const page = (): Page => s.page

  beforeAll(async () => {
    server = await startScriptedChatServer({ respond: () => ({ text: 'A real answer.' }) }, { models: ['tiny-1', 'big-2'], key: 'sk-e2e' })
    s = await startScenario('onboarding', { script: 'agents: {}\n', model: 'demo/demo' })
  }, 120_000)
  afterAll(async () => {
    await s?.close()
    await server?.close()
  })

  it('the welcome follows what the person set up; the first real model picked becomes the default', async () => {
    const p = page()
    await p.waitForSelector('[data-testid=first-run]')
    expect(await p.locator('[data-testid=demo-explainer]').count()).toBe(1)
    expect(await p.locator('[data-testid=add-provider]').count()).toBe(1)

    await p.click('[data-testid=add-provider]')
    await p.click('[data-testid=provider-add]')
    await p.fill('[data-testid=provider-name]', 'local')
    await p.fill('[data-testid=provider-url]', server.url)
    await p.fill('[data-testid=provider-key]', 'sk-e2e')
    await p.click('[data-testid=provider-save]')
    await p.locator('[data-testid=provider-row][data-provider=local]').waitFor()
    // The default model field offers the provider's models.
    await expect.poll(() => p.locator('[data-testid=default-model-choices] option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value)), { timeout: 15_000 }).toEqual(
      expect.arrayContaining(['local/tiny-1', 'local/big-2']),
    )
    await p.click('[data-testid=close-settings]')

    // Set up, not yet picked: no "Add a real provider", a hint to pick instead.
    expect(await p.locator('[data-testid=add-provider]').count()).toBe(0)
    expect(await p.locator('[data-testid=pick-a-model]').innerText()).toContain('pick one of its models')
    await p.click('[data-testid=model-picker]')
    await p.locator('[data-testid=model-option][data-model="local/tiny-1"]').click()
    await expect.poll(() => p.locator('[data-testid=info-notice]').last().innerText()).toContain('local/tiny-1 is now your default model (it was the offline demo)')
    expect(await p.locator('[data-testid=demo-explainer]').count()).toBe(0)
    await shot(p, 'onboarding', '01-after-picking-a-model')

    await send(p, 'hello')
    await expect.poll(() => transcriptText(p), { timeout: 20_000 }).toContain('A real answer.')
    // The next session starts on it, not on the demo.
    await p.click('[data-testid=new-session]')
    await expect.poll(() => p.getAttribute('[data-testid=model-picker]', 'data-model')).toBe('local/tiny-1')

    // Saving a default says so beside its own Save, not beside another button.
    await p.click('[data-testid=open-settings]')
    await expect.poll(() => p.locator('[data-testid=default-model]').inputValue()).toBe('local/tiny-1')
    await p.fill('[data-testid=default-model]', 'local/big-2')
    await p.click('[data-testid=default-model-save]')
    await expect.poll(() => p.locator('[data-testid=default-model-saved]').count()).toBe(1)
    expect(await p.locator('[data-testid=limits-saved]').count()).toBe(0)
    await p.locator('[data-testid=settings-model]').scrollIntoViewIfNeeded()
    await shot(p, 'onboarding', '02-default-saved')
    await p.click('[data-testid=close-settings]')
  })

  it('switching folders: the path completes from the host, a bad path says what is wrong in one sentence (issue 28)', async () => {
    const p = page()
    await p.click('[data-testid=workspace-button]')
    const input = p.locator('[data-testid=workspace-input]')
    await input.fill(s.workdir.slice(0, -3))
    await expect.poll(() => p.locator('[data-testid=workspace-folders] option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value)), { timeout: 5_000 }).toContain(`${s.workdir}/`)
    await input.fill('/no/such/folder/here')
    await input.press('Enter')
    const note = p.locator('[data-testid=workspace-popover] .error-note')
    await note.waitFor()
    expect(await note.innerText()).toContain('Folder /no/such/folder/here does not exist. Pick an existing folder.')
    expect(await note.innerText()).not.toContain('deleted or archived')
    await shot(p, 'onboarding', '03-bad-folder')
    await input.press('Escape')
  })
})
