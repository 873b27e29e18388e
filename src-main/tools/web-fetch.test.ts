import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BUILTIN_TOOLS } from './builtin-tools'
import { decodeEntities, htmlToText } from './html-to-text'
import { runTool } from './run-tool'
import { makeContext, type TestContext } from './testing/test-context'

const webFetch = BUILTIN_TOOLS.find((t) => t.name === 'web_fetch')!
const contexts: TestContext[] = []
function setup() {
  const ctx = makeContext()
  contexts.push(ctx)
  return ctx
}
afterEach(() => contexts.splice(0).forEach((c) => c.cleanup()))

const page = `<!doctype html><html><head><title>Docs &amp; Guides</title><style>body{color:red}</style>
<script>alert("x")</script></head><body><h1>Install</h1><p>Run <code>npm&nbsp;i</code> &lt;pkg&gt; &#8212; done&#x21;</p>
<ul><li>one</li><li>two</li></ul><!-- hidden comment --></body></html>`

let server: http.Server
let base: string
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '/'
    if (url === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
    else if (url === '/plain') res.writeHead(200, { 'content-type': 'text/plain' }).end('just text')
    else if (url === '/moved') res.writeHead(302, { location: '/plain' }).end()
    else if (url === '/away') res.writeHead(301, { location: 'http://localhost:1/elsewhere' }).end()
    else if (url === '/hang') res.writeHead(200, { 'content-type': 'text/plain' }).write('partial')
    else if (url === '/image') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50]))
    else if (url === '/huge') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      const chunk = 'y'.repeat(1024 * 1024)
      for (let i = 0; i < 6; i++) res.write(chunk)
      res.end()
    } else res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => {
  // The hanging route never ends its response; drop its socket so close() can finish.
  server.closeAllConnections()
  return new Promise<void>((resolve) => server.close(() => resolve()))
})

describe('htmlToText', () => {
  it('drops scripts, styles and comments, keeps the title and structure, decodes entities', () => {
    expect(htmlToText(page)).toBe('Docs & Guides\n\nInstall\n\nRun npm i <pkg> — done!\n\n- one\n- two')
  })

  it('leaves unknown or out-of-range entities as written', () => {
    expect(decodeEntities('&bogus; &#x110000; &#39;')).toBe("&bogus; &#x110000; '")
  })
})

describe('web_fetch', () => {
  it('fetches HTML as readable text, asking permission for the host', async () => {
    const ctx = setup()
    const r = await runTool(webFetch, { url: `${base}/page` }, ctx)
    expect(r).toMatchObject({ ok: true, output: 'Docs & Guides\n\nInstall\n\nRun npm i <pkg> — done!\n\n- one\n- two' })
    expect(ctx.asks[0]).toEqual({ ask: { kind: 'host', subjects: ['127.0.0.1'] }, display: { summary: `Fetch ${base}/page` } })
  })

  it('returns raw HTML with format html', async () => {
    const r = await runTool(webFetch, { url: `${base}/page`, format: 'html' }, setup())
    expect(r.output).toBe(page)
  })

  it('follows same-host redirects but not redirects to another host', async () => {
    const ctx = setup()
    expect((await runTool(webFetch, { url: `${base}/moved` }, ctx)).output).toBe('just text')
    const away = await runTool(webFetch, { url: `${base}/away` }, ctx)
    expect(away.output).toBe(`${base}/away redirects (HTTP 301) to http://localhost:1/elsewhere, on another host. Call web_fetch with that URL to follow it.`)
  })

  it('reports HTTP errors, binary content and bad URLs as tool errors', async () => {
    const ctx = setup()
    expect(await runTool(webFetch, { url: `${base}/missing` }, ctx)).toMatchObject({ ok: false, output: `HTTP 404 Not Found for ${base}/missing.\nno such page` })
    expect((await runTool(webFetch, { url: `${base}/image` }, ctx)).output).toBe(`${base}/image returned image/png, which is not text; web_fetch only returns text content.`)
    expect((await runTool(webFetch, { url: 'file:///etc/passwd' }, ctx)).output).toBe('url must use http or https, not file.')
    expect((await runTool(webFetch, { url: 'not a url' }, ctx)).output).toBe('url is not a valid URL: "not a url". Send a full URL like https://example.com/page.')
    // Refused before the permission gate: nothing to approve.
    expect(ctx.asks).toHaveLength(2)
  })

  it('cuts bodies over 5 MB and says so', async () => {
    const r = await runTool(webFetch, { url: `${base}/huge` }, setup())
    const full = (await import('node:fs')).readFileSync(r.metadata?.fullOutputPath as string, 'utf8')
    expect(full.length).toBe(5 * 1024 * 1024 + `\n… [body cut at ${5 * 1024 * 1024} bytes]`.length)
    expect(full.endsWith(`… [body cut at ${5 * 1024 * 1024} bytes]`)).toBe(true)
  })

  it('stops waiting on a hanging server when the run is aborted', async () => {
    const ctx = setup()
    const started = Date.now()
    setTimeout(() => ctx.controller.abort(), 150)
    const r = await runTool(webFetch, { url: `${base}/hang` }, ctx)
    expect(r).toMatchObject({ ok: false, metadata: { aborted: true } })
    // The server never answers: returning at all shows the abort ended the wait; the bound only keeps a hang short.
    expect(Date.now() - started).toBeLessThan(15_000)
  })

  it('reports a refused connection clearly', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const r = await runTool(webFetch, { url: `http://127.0.0.1:${port}/x` }, setup())
    expect(r.ok).toBe(false)
    expect(r.output).toMatch(new RegExp(`^Could not fetch http://127\\.0\\.0\\.1:${port}/x \\(fetch failed: connect ECONNREFUSED`))
  })
})
