import fs from 'node:fs'
import path from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import { launchBrowser } from './browser'
import { buildRenderer, REPO_ROOT } from './build-renderer'
import { startDaemon, tempDir, writeTree, type RunningDaemon } from './daemon'

export type Scenario = {
  page: Page
  context: BrowserContext
  daemon: RunningDaemon
  home: string
  workdir: string
  /** keepToken: restart with the same token (agentry serve --token), so the open page reconnects by itself; otherwise a new one */
  restartDaemon(opts?: { kill?: boolean; keepToken?: boolean }): Promise<RunningDaemon>
  /** kill -9 the daemon and leave it down; the returned function starts it again (same port and token) */
  pauseDaemon(): Promise<() => Promise<void>>
  close(): Promise<void>
}

/**
 * One isolated world per test: a temp data dir whose default model is the `script` provider replaying `script`,
 * a temp workspace with `files`, the real daemon, and a fresh Chromium page on the daemon's URL.
 */
export async function startScenario(name: string, o: { script: string; files?: Record<string, string>; permissions?: string; model?: string; config?: string }): Promise<Scenario> {
  const cli = path.join(REPO_ROOT, 'out', 'cli', 'agentry.mjs')
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run "npm run build" before the e2e tests`)
  await buildRenderer()
  const home = tempDir(`${name}-home`)
  const workdir = tempDir(`${name}-ws`)
  const scriptFile = path.join(home, 'script.yaml')
  fs.writeFileSync(scriptFile, o.script)
  // `config`: more of the person's config.yaml (YAML text), e.g. MCP servers.
  fs.writeFileSync(path.join(home, 'config.yaml'), `model: ${o.model ?? 'script/e2e'}\n${o.config ?? ''}`)
  // The person's own rules (a workspace's file may only tighten them).
  if (o.permissions) fs.writeFileSync(path.join(home, 'permissions.jsonc'), o.permissions)
  writeTree(workdir, { 'README.md': '# Sample project\n', ...o.files })
  const env = { AGENTRY_SCRIPT: scriptFile }
  let daemon = await startDaemon({ home, workdir, env })
  const b = await launchBrowser()
  await b.page.goto(daemon.url)
  await b.page.waitForSelector('[data-testid=composer-input]')
  return {
    page: b.page,
    context: b.context,
    get daemon() {
      return daemon
    },
    home,
    workdir,
    async restartDaemon(opts) {
      await daemon.stop(opts?.kill ? 'SIGKILL' : 'SIGTERM')
      const token = opts?.keepToken ? (new URL(daemon.url).searchParams.get('token') ?? undefined) : undefined
      daemon = await startDaemon({ home, workdir, env, port: daemon.port, token })
      return daemon
    },
    async pauseDaemon() {
      await daemon.stop('SIGKILL')
      const token = new URL(daemon.url).searchParams.get('token') ?? undefined
      return async () => {
        daemon = await startDaemon({ home, workdir, env, port: daemon.port, token })
      }
    },
    async close() {
      await b.close()
      await daemon.stop()
      fs.rmSync(home, { recursive: true, force: true })
      fs.rmSync(workdir, { recursive: true, force: true })
    },
  }
}

/** Sends a prompt through the composer as a person would (type, Enter). */
export async function send(page: Page, text: string): Promise<void> {
  await page.fill('[data-testid=composer-input]', text)
  await page.press('[data-testid=composer-input]', 'Enter')
}

export const transcriptText = (page: Page): Promise<string> => page.locator('[data-testid=transcript]').innerText()
