import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { _electron, type ElectronApplication, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Smoke test of the desktop app through Playwright's Electron driver: open the window, check it is locked down,
 * send a prompt over the IPC bridge, answer the approval it raises, see the run finish. It needs the Electron
 * binary (downloaded on first use; impossible offline) and better-sqlite3 built for Electron's ABI (`npm start`
 * builds it into out/native/electron). Without them it is skipped, with the reason printed.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(path.join(repo, 'package.json'))
const binding = path.join(repo, 'out', 'native', 'electron', 'better_sqlite3.node')

function electronBinary(): string | undefined {
  const dir = path.dirname(require.resolve('electron/package.json'))
  const pathTxt = path.join(dir, 'path.txt')
  if (!fs.existsSync(pathTxt)) return undefined
  const exe = path.join(dir, 'dist', fs.readFileSync(pathTxt, 'utf8').trim())
  return fs.existsSync(exe) ? exe : undefined
}

const executablePath = electronBinary()
const skipReason = !executablePath
  ? 'Electron binary not installed (electron downloads it on first use; this machine cannot). The same flows run in Chromium against the daemon.'
  : !fs.existsSync(binding)
    ? `better-sqlite3 is not built for Electron yet (${binding} missing); run "npm start" once to build it.`
    : undefined
if (skipReason) console.warn(`[e2e:electron] skipped: ${skipReason}`)

const script = `
agents:
  build:
    - step: 1
      text: "Writing the file."
      tools:
        - { name: bash, input: { command: "echo hello > hello.txt", description: "write hello.txt" } }
    - step: 2
      text: "Done."
  "*":
    - { text: "Smoke test", repeat: true }
`

describe.skipIf(skipReason !== undefined)('desktop app (Electron)', () => {
  let app: ElectronApplication
  let page: Page
  let workspace: string

  beforeAll(async () => {
    if (!fs.existsSync(path.join(repo, 'out', 'main', 'index.js')) || !fs.existsSync(path.join(repo, 'out', 'preload', 'index.cjs'))) {
      const r = spawnSync(process.execPath, [path.join(path.dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js'), 'build'], {
        cwd: repo,
        stdio: 'inherit',
      })
      if (r.status !== 0) throw new Error('electron-vite build failed')
    }
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-electron-home-'))
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-electron-ws-'))
    fs.writeFileSync(path.join(home, 'script.yaml'), script)
    fs.writeFileSync(path.join(home, 'config.yaml'), 'model: script/smoke\n')
    const args = [repo]
    if (process.platform === 'linux' && process.getuid?.() === 0) args.push('--no-sandbox')
    app = await _electron.launch({
      executablePath,
      args,
      env: { ...(process.env as Record<string, string>), AGENTRY_HOME: home, AGENTRY_SQLITE_BINDING: binding, AGENTRY_SCRIPT: path.join(home, 'script.yaml') },
    })
    page = await app.firstWindow()
    await page.waitForLoadState('domcontentloaded')
  }, 60_000)

  afterAll(async () => {
    await app?.close()
  })

  it('opens one locked-down window whose page sees only the fixed bridge object', async () => {
    expect(page.url()).toBe('app://agentry/index.html')
    const surface = await page.evaluate(() => {
      const w = globalThis as unknown as { agentry?: Record<string, unknown>; require?: unknown; process?: unknown }
      return {
        hasRequire: typeof w.require,
        hasProcess: typeof w.process,
        methods: Object.keys(w.agentry ?? {}).sort(),
      }
    })
    expect(surface.hasRequire).toBe('undefined')
    expect(surface.hasProcess).toBe('undefined')
    expect(surface.methods).toContain('sessionsList')
    expect(surface.methods).toContain('onEvent')
    expect(surface.methods).not.toContain('invoke')
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1)
  })

  it('sends a prompt, answers the approval it raises, and sees the run finish', async () => {
    type Api = Record<string, (input: unknown) => Promise<{ ok: boolean; data?: unknown; error?: { message: string } }>>
    const sessionId = await page.evaluate(async (root) => {
      const api = (globalThis as unknown as { agentry: Api }).agentry
      const created = await api.sessionsCreate({ workspaceRoot: root })
      if (!created.ok) throw new Error(created.error?.message)
      const id = (created.data as { session: { id: string } }).session.id
      const sent = await api.messagesPrompt({ sessionId: id, requestId: 'req-smoke-1', text: 'write hello.txt' })
      if (!sent.ok) throw new Error(sent.error?.message)
      return id
    }, workspace)

    let approvalId: string | null = null
    await expect
      .poll(
        async () =>
          (approvalId = await page.evaluate(async (id) => {
            const r = await (globalThis as unknown as { agentry: Api }).agentry.approvalsList({ rootSessionId: id })
            return r.ok ? ((r.data as { approvals: { id: string }[] }).approvals[0]?.id ?? null) : null
          }, sessionId)),
        { timeout: 20_000 },
      )
      .not.toBeNull()
    fs.mkdirSync(path.join(repo, 'e2e', 'artifacts', 'electron'), { recursive: true })
    await page.screenshot({ path: path.join(repo, 'e2e', 'artifacts', 'electron', 'approval.png') })
    const answered = await page.evaluate(
      async (id) => (globalThis as unknown as { agentry: Api }).agentry.approvalsAnswer({ approvalId: id, decision: 'allow_once' }),
      approvalId,
    )
    expect(answered.ok).toBe(true)

    await expect
      .poll(
        () =>
          page.evaluate(async (id) => {
            const r = await (globalThis as unknown as { agentry: Api }).agentry.sessionsGet({ sessionId: id })
            return r.ok ? (r.data as { session: { status: string } }).session.status : 'error'
          }, sessionId),
        { timeout: 20_000 },
      )
      .toBe('idle')
    expect(fs.readFileSync(path.join(workspace, 'hello.txt'), 'utf8').trim()).toBe('hello')
    await page.screenshot({ path: path.join(repo, 'e2e', 'artifacts', 'electron', 'done.png') })
  })
})
