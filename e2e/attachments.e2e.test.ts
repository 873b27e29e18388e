import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

/**
 * Images and files in prompts (issue 28): paste a screenshot, drop or pick a file, mention a workspace file with
 * `@path`. The script model answers by what its prompt holds, so each answer proves what the model was sent.
 */
const script = `
agents:
  build:
    - { match: "[Image pasted-image.png:]", text: "I see a red square." }
    - { match: "<file name=\\"notes.txt\\">", text: "Your notes have two steps." }
    - { match: "<file path=\\"src/app.ts\\">", text: "app.ts exports the answer, 42." }
    - { match: "was not attached", text: "I was not given that file." }
  title: [ { text: "Files", repeat: true } ]
`

// A 2×2 red PNG.
const RED = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=='

/** Fires a paste (or a drop on the message box) carrying files, as the browser does for a screenshot or a drag. */
async function deliverFiles(page: Page, how: 'paste' | 'drop', files: { name: string; type: string; base64?: string; text?: string }[]) {
  await page.evaluate(
    ({ how, files }) => {
      const dt = new DataTransfer()
      for (const f of files) {
        const bytes = f.base64 ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)) : new TextEncoder().encode(f.text ?? '')
        dt.items.add(new File([bytes], f.name, { type: f.type }))
      }
      if (how === 'paste') document.querySelector('[data-testid=composer-input]')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }))
      else {
        const box = document.querySelector('[data-testid=composer]')!
        box.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }))
        box.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }))
      }
    },
    { how, files },
  )
}

describe('files in prompts', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('attachments', { script, files: { 'src/app.ts': 'export const answer = 42\n', '.env': 'TOKEN=secret\n' }, permissions: '{ "read_file": { "*": "allow", ".env": "deny" } }' })
  }, 120_000)
  afterAll(async () => s?.close())

  it('a pasted screenshot is a chip with its thumbnail, goes to the model as an image, and shows on the message', async () => {
    const { page } = s
    const input = page.locator('[data-testid=composer-input]')
    await input.click()
    await deliverFiles(page, 'paste', [{ name: '', type: 'image/png', base64: RED }])
    const chip = page.locator('[data-testid=attachment-chip]')
    await expect.poll(() => chip.count()).toBe(1)
    expect(await chip.innerText()).toContain('pasted-image.png')
    await input.fill('what is this?')
    await shot(page, 'attachments', '01-pasted-image')
    await page.emulateMedia({ colorScheme: 'dark' })
    await shot(page, 'attachments', '01-pasted-image-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    await input.press('Enter')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('I see a red square.')
    expect(await chip.count()).toBe(0)
    const image = page.locator('[data-testid=message][data-role=user] [data-testid=message-image] img')
    await expect.poll(() => image.count()).toBe(1)
    expect(await image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(2)
    await shot(page, 'attachments', '02-image-in-transcript')
  })

  it('a dropped text file and one picked with the button are sent with the message; a PDF is refused by name; × drops a file', async () => {
    const { page } = s
    await deliverFiles(page, 'drop', [
      { name: 'notes.txt', type: 'text/plain', text: 'step 1\nstep 2\n' },
      { name: 'report.pdf', type: 'application/pdf', base64: 'JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSL0ZpbHRlci9GbGF0ZURlY29kZT4+CnN0cmVhbQp4nAAA' },
    ])
    const chips = page.locator('[data-testid=attachment-chip]')
    await expect.poll(() => chips.count()).toBe(1)
    expect(await page.locator('[data-testid=composer-error]').innerText()).toContain('report.pdf is neither an image (PNG, JPEG, GIF, WebP) nor a text file')
    await page.locator('[data-testid=attach-input]').setInputFiles({ name: 'extra.md', mimeType: 'text/markdown', buffer: Buffer.from('# extra\n') })
    await expect.poll(() => chips.count()).toBe(2)
    await chips.nth(1).locator('[data-testid=attachment-remove]').click()
    await expect.poll(() => chips.count()).toBe(1)
    await send(page, 'summarize my notes')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Your notes have two steps.')
    const file = page.locator('[data-testid=message][data-role=user]').last().locator('[data-testid=message-file]')
    expect(await file.innerText()).toContain('notes.txt')
    await file.locator('button').click()
    expect((await file.locator('[data-testid=message-file-text]').innerText()).trimEnd()).toBe('step 1\nstep 2')
  })

  it('@path attaches the workspace file as it is now; a file the rules deny is named, not read', async () => {
    const { page } = s
    await send(page, 'what does @src/app.ts export?')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('app.ts exports the answer, 42.')
    const last = () => page.locator('[data-testid=message][data-role=user]').last()
    expect(await last().locator('[data-testid=message-file]').innerText()).toContain('@src/app.ts')
    await send(page, 'and @.env?')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('I was not given that file.')
    expect(await last().locator('[data-testid=message-file]').innerText()).toContain('not attached: permission rules deny reading it')
    await shot(page, 'attachments', '03-mentions')
    // A reload shows the same files on the messages (they are in the store, not in the page).
    await page.reload()
    await expect.poll(() => page.locator('[data-testid=message-image]').count(), { timeout: 15_000 }).toBe(1)
    expect(await page.locator('[data-testid=message-file]').count()).toBe(3)
  })
})
