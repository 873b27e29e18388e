import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { REPO_ROOT } from './build-renderer'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/** Debian's Chromium, headless, with the flags a root CI container needs and a fresh profile. */
export async function launchBrowser(): Promise<{ browser: Browser; context: BrowserContext; page: Page; close(): Promise<void> }> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}. Install it with: apt-get install -y chromium`)
  // playwright's launch() always starts Chromium with a fresh temporary profile (it rejects --user-data-dir).
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  })
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, colorScheme: 'light' })
  // tsx/esbuild (keepNames) wrap named functions passed to page.evaluate in __name(); give the page a no-op one.
  await context.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((f) => f)' })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  return {
    browser,
    context,
    page,
    close: async () => {
      await browser.close()
    },
  }
}

/**
 * Saves a screenshot as a test artifact under e2e/artifacts/ (ignored by git). Tests never touch the tracked
 * docs/screenshots/: `publish` names the README image, copied there only when AGENTRY_PUBLISH_SCREENSHOTS=1.
 */
export async function shot(page: Page, test: string, name: string, publish?: string): Promise<string> {
  const dir = path.join(REPO_ROOT, 'e2e', 'artifacts', test)
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${name}.png`)
  await page.screenshot({ path: file })
  if (publish && process.env.AGENTRY_PUBLISH_SCREENSHOTS === '1') {
    const docs = path.join(REPO_ROOT, 'docs', 'screenshots')
    fs.mkdirSync(docs, { recursive: true })
    fs.copyFileSync(file, path.join(docs, `${publish}.png`))
  }
  return file
}
