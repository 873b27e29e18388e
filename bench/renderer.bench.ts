/**
 * Renderer benchmark (Playwright + Debian Chromium). The renderer is built with Vite and served statically; a
 * synthetic host (`renderer-fake-host.js`, injected as the preload's `window.agentry`) supplies the data, so the
 * numbers are the UI's own cost. Prints JSON. Run: npx tsx bench/renderer.bench.ts
 *
 * - firstPaint5000: click a 5,000-message session → its transcript painted (target < 500 ms)
 * - filterKeystroke: one keystroke in the session search with 10,000 sessions → list updated (target < 50 ms)
 * - sessionRows: DOM rows in the picker, at the top and after scrolling to the middle (target < 100)
 * - streamingFrame: 200 tokens/s into that long transcript — prose, tables, highlighted code blocks and nested lists —
 *   per-frame main-thread time, p95 (target < 16 ms)
 */
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildRenderer } from '../e2e/support/build-renderer'
import { launchBrowser } from '../e2e/support/browser'

const here = path.dirname(fileURLToPath(import.meta.url))

function serveStatic(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/+/, '') || 'index.html'
    const file = path.join(dir, path.normalize(rel))
    if (!file.startsWith(dir) || !fs.existsSync(file)) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' })
    fs.createReadStream(file).pipe(res)
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port
      resolve({ url: `http://127.0.0.1:${port}/index.html`, close: () => new Promise((r) => server.close(() => r())) })
    }),
  )
}

const p95 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] ?? NaN
}
const round = (n: number): number => Math.round(n * 10) / 10

export async function run(): Promise<Record<string, unknown>> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-bench-renderer-'))
  await buildRenderer(outDir)
  const server = await serveStatic(outDir)
  const b = await launchBrowser()
  try {
    const { page } = b
    await page.addInitScript({ content: 'window.__FAKE_HOST_CONFIG = { sessions: 10000, messages: 5000 }' })
    await page.addInitScript({ path: path.join(here, 'renderer-fake-host.js') })
    const pageErrors: string[] = []
    page.on('pageerror', (e) => pageErrors.push(e.stack ?? e.message))
    page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()))
    await page.goto(server.url)
    await page.waitForSelector('[data-testid=session-row]').catch((err: unknown) => {
      throw new Error(`the sidebar never showed a session (page errors: ${pageErrors.join(' | ') || 'none'})`, { cause: err })
    })

    // 1. First paint of the 5,000-message transcript, measured in the page from the click to the painted frame.
    const firstPaint5000 = await page.evaluate(async () => {
      const row = document.querySelector<HTMLElement>('[data-testid=session-row]')
      if (!row) throw new Error('no session row')
      const t0 = performance.now()
      row.click()
      await new Promise<void>((resolve) => {
        const check = () => (document.querySelectorAll('[data-testid=transcript] [data-testid=message]').length > 0 ? resolve() : requestAnimationFrame(check))
        check()
      })
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))
      return performance.now() - t0
    })
    const renderedMessages = await page.locator('[data-testid=transcript] [data-testid=message]').count()

    // 2. Filter keystroke with 10,000 sessions.
    const rowsTop = await page.locator('[data-testid=session-row]').count()
    const filterKeystroke: number[] = []
    for (const q of ['S', 'Se', 'Ses', 'Session 12', 'Session 123']) {
      filterKeystroke.push(
        await page.evaluate(async (value) => {
          const input = document.querySelector<HTMLInputElement>('[data-testid=session-search]')
          if (!input) throw new Error('no search box')
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
          const t0 = performance.now()
          setter?.call(input, value)
          input.dispatchEvent(new Event('input', { bubbles: true }))
          await new Promise((r) => requestAnimationFrame(r))
          return performance.now() - t0
        }, q),
      )
    }
    await page.fill('[data-testid=session-search]', '')
    await page.evaluate(() => {
      const list = document.querySelector('[data-testid=session-list]')
      if (list) list.scrollTop = list.scrollHeight / 2
    })
    await page.waitForTimeout(200)
    const rowsMiddle = await page.locator('[data-testid=session-row]').count()

    // 3. Streaming 200 tokens/s for 5 s: main-thread time of each frame (rAF start → the task after rendering).
    //    'rich' is an answer with tables, highlighted code blocks and nested lists; 'plain' is words only.
    const stream = (kind: 'rich' | 'plain') =>
      page.evaluate(async (k) => {
        const host = (window as unknown as { __fakeHost: { startStreaming(rate: number, s: number, kind: string): Promise<number> } }).__fakeHost
        const work: number[] = []
        const intervals: number[] = []
        let last = 0
        let running = true
        const channel = new MessageChannel()
        let frameStart = 0
        channel.port1.onmessage = () => work.push(performance.now() - frameStart)
        const frame = (t: number) => {
          if (!running) return
          if (last) intervals.push(t - last)
          last = t
          frameStart = performance.now()
          channel.port2.postMessage(0)
          requestAnimationFrame(frame)
        }
        requestAnimationFrame(frame)
        const tokens = await host.startStreaming(200, 5, k)
        running = false
        // What the streamed message turned into: the figure only means something if tables and code rendered.
        await new Promise((r) => setTimeout(r, 300))
        const rows = document.querySelectorAll('[data-testid=transcript] [data-testid=message]')
        const msg = rows[rows.length - 1]
        const rendered = {
          tables: msg?.querySelectorAll('table').length ?? 0,
          codeBlocks: msg?.querySelectorAll('[data-testid=code-block]').length ?? 0,
          highlightedTokens: msg?.querySelectorAll('.hljs-keyword, .hljs-regexp, .hljs-comment').length ?? 0,
        }
        return { tokens, work, intervals, rendered }
      }, kind)
    const summary = (r: Awaited<ReturnType<typeof stream>>) => ({
      tokens: r.tokens,
      frames: r.work.length,
      frameWorkP95Ms: round(p95(r.work)),
      frameWorkP50Ms: round([...r.work].sort((x, y) => x - y)[r.work.length >> 1] ?? NaN),
      frameWorkMaxMs: round(Math.max(...r.work)),
      frameIntervalP95Ms: round(p95(r.intervals)),
      rendered: r.rendered,
    })
    const rich = summary(await stream('rich'))
    const plain = summary(await stream('plain'))

    return {
      bench: 'renderer',
      chromium: b.browser.version(),
      firstPaint5000Ms: round(firstPaint5000),
      firstPaintTargetMs: 500,
      renderedMessageRows: renderedMessages,
      filterKeystrokeMs: filterKeystroke.map(round),
      filterKeystrokeMaxMs: round(Math.max(...filterKeystroke)),
      filterTargetMs: 50,
      sessionDomRows: { top: rowsTop, middle: rowsMiddle, target: '< 100' },
      streaming: { targetP95Ms: 16, rich, plain },
    }
  } finally {
    await b.close()
    await server.close()
    fs.rmSync(outDir, { recursive: true, force: true })
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  run().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (err: unknown) => {
      console.error(err)
      process.exit(1)
    },
  )
}
