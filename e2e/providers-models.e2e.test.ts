import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedChatServer, type ScriptedChatServer } from '../src-main/models/testing/scripted-chat-server'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/**
 * A person adds a provider in Settings, picks one of its models in the composer and chats with it (a loopback
 * OpenAI-compatible server), switches the model mid-session, copies, gets a 500, sees the error in place after a
 * reload, retries, edits a sent message, and finds a word from an answer with the sidebar search.
 */

const script = `
agents:
  title: [ { text: "Provider chat", repeat: true } ]
`

type Body = { model?: string; messages?: { role: string; content: unknown }[] }

function lastUserText(body: Body): string {
  const users = (body.messages ?? []).filter((m) => m.role === 'user')
  const c = users.at(-1)?.content
  if (typeof c === 'string') return c
  if (Array.isArray(c)) return c.map((p: { text?: string }) => p.text ?? '').join('')
  return ''
}

describe('providers and models in the UI', () => {
  let s: Scenario
  let server: ScriptedChatServer
  let failing = false
  let answered = 0
  const page = (): Page => s.page
  const openPicker = async () => {
    await page().click('[data-testid=model-picker]')
    await page().waitForSelector('[data-testid=model-menu]')
  }

  beforeAll(async () => {
    server = await startScriptedChatServer(
      {
        respond: (body) => {
          if (failing) return { status: 500 }
          answered++
          const b = body as Body
          return { text: `${b.model} says: ${lastUserText(b)} (answer ${answered}, quokka)`, usage: { prompt: 1200, completion: 80 } }
        },
      },
      { models: ['tiny-1', 'big-2'], key: 'sk-e2e' },
    )
    s = await startScenario('providers', { script })
    // The person's own config file, with a comment that must survive the Settings edits.
    fs.writeFileSync(path.join(s.home, 'config.yaml'), '# my settings — keep this line\nmodel: script/e2e\n')
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(s.daemon.url).origin })
  }, 120_000)
  afterAll(async () => {
    await s?.close()
    await server?.close()
  })

  it('adds a provider in Settings with inline checks, Test, and the key into the key store', async () => {
    const p = page()
    await p.click('[data-testid=open-settings]')
    await p.click('[data-testid=provider-add]')
    await p.fill('[data-testid=provider-name]', 'demo')
    expect(await p.locator('[data-testid=provider-field-error-name]').innerText()).toMatch(/built-in/)
    await p.fill('[data-testid=provider-name]', 'local')
    await p.fill('[data-testid=provider-url]', 'not a url')
    expect(await p.locator('[data-testid=provider-field-error-baseURL]').innerText()).toMatch(/Not a URL/)
    await p.fill('[data-testid=provider-url]', server.url)
    await p.fill('[data-testid=provider-key]', 'sk-wrong')
    await p.click('[data-testid=provider-form-test]')
    await expect.poll(() => p.locator('[data-testid=provider-test-result]').innerText(), { timeout: 15_000 }).toMatch(/✕/)
    await p.fill('[data-testid=provider-key]', 'sk-e2e')
    await p.click('[data-testid=provider-form-test]')
    await expect.poll(() => p.locator('[data-testid=provider-test-result]').innerText(), { timeout: 15_000 }).toMatch(/✓.*2 models/)
    await shot(p, 'providers', '01-provider-form', 'provider-settings')
    await p.click('[data-testid=provider-save]')
    const row = p.locator('[data-testid=provider-row][data-provider=local]')
    await row.waitFor()
    expect(await row.locator('[data-testid=provider-key-status]').innerText()).toBe('key saved in the app')
    const yaml = fs.readFileSync(path.join(s.home, 'config.yaml'), 'utf8')
    expect(yaml).toContain('# my settings — keep this line')
    expect(yaml).toMatch(/local:[\s\S]*type: openai-compatible[\s\S]*baseURL:/)
    expect(yaml).not.toContain('sk-e2e')

    // A default model whose provider does not exist is named under the field, as typed.
    await p.fill('[data-testid=default-model]', 'nope/x')
    expect(await p.locator('[data-testid=default-model-error]').innerText()).toMatch(/no provider "nope"/)
    await p.fill('[data-testid=limit-maxDepth]', '-3')
    expect(await p.locator('[data-testid=limit-error-maxDepth]').innerText()).toMatch(/1/)
    // Refresh reloads every field from disk.
    await p.click('[data-testid=settings-refresh]')
    await expect.poll(() => p.locator('[data-testid=default-model]').inputValue()).toBe('script/e2e')
    await expect.poll(() => p.locator('[data-testid=limit-maxDepth]').inputValue()).not.toBe('-3')
    await p.click('[data-testid=close-settings]')
  })

  it('picks a model from the provider for a new session, chats, and switches the model mid-session', async () => {
    const p = page()
    await openPicker()
    await p.locator('[data-testid=model-option][data-model="local/tiny-1"]').waitFor({ timeout: 15_000 })
    expect(await p.locator('[data-testid=model-option]').evaluateAll((els) => els.map((e) => e.getAttribute('data-model')))).toEqual(
      expect.arrayContaining(['local/tiny-1', 'local/big-2']),
    )
    await shot(p, 'providers', '02-model-menu', 'model-picker')
    await p.locator('[data-testid=model-option][data-model="local/tiny-1"]').click()
    expect(await p.getAttribute('[data-testid=model-picker]', 'data-model')).toBe('local/tiny-1')
    await send(p, 'hello there')
    await expect.poll(() => transcriptText(p), { timeout: 20_000 }).toContain('tiny-1 says: hello there')
    expect(await p.locator('[data-testid=session-model]').innerText()).toBe('local/tiny-1')
    await p.locator('[data-testid=context-gauge]').waitFor()

    // Switch mid-session with the keyboard: filter, Enter.
    await openPicker()
    await p.fill('[data-testid=model-filter]', 'big')
    await p.locator('[data-testid=model-option][data-model="local/big-2"]').waitFor()
    await p.press('[data-testid=model-filter]', 'Enter')
    await expect.poll(() => p.locator('[data-testid=session-model]').innerText()).toBe('local/big-2')
    await send(p, 'second question')
    await expect.poll(() => transcriptText(p), { timeout: 20_000 }).toContain('big-2 says: second question')
    const models = server.requests.map((r) => (r as Body).model)
    expect(models).toContain('tiny-1')
    expect(models.at(-1)).toBe('big-2')
    expect(server.headers.at(-1)?.authorization).toBe('Bearer sk-e2e')
    await shot(p, 'providers', '03-switched-model')

    // Copy the answer (clipboard permission granted to the page).
    await p.locator('[data-testid=message][data-role=assistant] [data-testid=copy-message]').last().click()
    expect(await p.evaluate(() => navigator.clipboard.readText())).toMatch(/^big-2 says: second question/)
  })

  it('a 500 is stored in the transcript: shown in place, still there after a reload, and Retry runs the message again', async () => {
    const p = page()
    failing = true
    await send(p, 'break now')
    // While it waits to ask again, the transcript says so (issue 28: it was empty for those seconds).
    const retrying = p.locator('[data-testid=retry-notice]')
    await retrying.waitFor({ timeout: 15_000 })
    expect(await retrying.innerText()).toMatch(/^↻?\s*Retrying (in \d+ s|now) — attempt \d of 4 · the provider said: .*500/s)
    await shot(p, 'providers', '04a-retrying')
    await p.locator('[data-testid=run-error]').waitFor({ timeout: 30_000 })
    expect(await retrying.count()).toBe(0)
    // In words: the provider's side, not the person's settings; no raw JSON, no code in the title.
    const card = p.locator('[data-testid=run-error]')
    expect(await card.locator('.callout-title').innerText()).toBe("The provider's server did not answer")
    expect(await card.innerText()).toContain('not your settings')
    expect(await card.innerText()).not.toMatch(/model_error|model_unavailable|\{"/)
    await p.reload()
    await p.locator('[data-testid=run-error]').waitFor({ timeout: 15_000 })
    const text = await transcriptText(p)
    expect(text.indexOf('break now')).toBeLessThan(text.indexOf("The provider's server did not answer"))
    await shot(p, 'providers', '04-error-after-reload', 'error-retry')
    failing = false
    await p.click('[data-testid=retry]')
    await expect.poll(() => transcriptText(p), { timeout: 20_000 }).toContain('big-2 says: break now')
    expect(await p.locator('[data-testid=run-error]').count()).toBe(0)
    // Regenerate the last answer: a new answer replaces it.
    const before = await p.locator('[data-testid=message][data-role=assistant]').last().innerText()
    await p.click('[data-testid=regenerate]')
    const last = () => p.locator('[data-testid=message][data-role=assistant]').last().innerText()
    await expect.poll(async () => { const t = await last(); return t !== before && t.includes('says: break now') }, { timeout: 20_000 }).toBe(true)
    expect((await transcriptText(p)).split('says: break now').length - 1).toBe(1)
  })

  it('edits a sent message: what followed is hidden and the new text is answered', async () => {
    const p = page()
    await p.locator('[data-testid=message][data-role=user]').filter({ hasText: 'second question' }).locator('[data-testid=edit-message]').click()
    await p.fill('[data-testid=message-edit-input]', 'second question, edited')
    await p.press('[data-testid=message-edit-input]', 'Enter')
    await expect.poll(() => transcriptText(p), { timeout: 20_000 }).toContain('big-2 says: second question, edited')
    const text = await transcriptText(p)
    expect(text).toContain('tiny-1 says: hello there')
    expect(text).not.toContain('break now')
    expect(text.split('second question').length - 1).toBe(2) // the edited message and its answer
  })

  it('the sidebar search finds a word that only an answer contains, with the snippet; the palette switches the model', async () => {
    const p = page()
    await p.click('[data-testid=new-session]')
    await p.fill('[data-testid=session-search]', 'quokka')
    const hit = p.locator('[data-testid=message-hit]').first()
    await hit.waitFor({ timeout: 15_000 })
    expect(await hit.locator('mark').first().innerText()).toBe('quokka')
    await shot(p, 'providers', '05-message-search', 'message-search')
    await hit.click()
    await expect.poll(() => transcriptText(p)).toContain('tiny-1 says: hello there')

    // The palette switches the model too (Ctrl+K › Switch model…).
    await p.keyboard.press('Control+k')
    await p.keyboard.type('switch model')
    await p.keyboard.press('Enter')
    await p.keyboard.type('tiny')
    await p.locator('[data-testid=palette-item]', { hasText: 'local/tiny-1' }).waitFor()
    await p.keyboard.press('Enter')
    await expect.poll(() => p.locator('[data-testid=session-model]').innerText()).toBe('local/tiny-1')
  })
})
