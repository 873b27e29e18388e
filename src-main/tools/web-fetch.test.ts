import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { CompactPermission } from '../../src-shared'
import { BUILTIN_TOOLS } from './builtin-tools'
import { htmlToMarkdown } from './html-worker'
import { protectLocalPort } from './destination'
import { runTool } from './run-tool'
import { makeContext, type TestContext } from './testing/test-context'
import { withoutStall } from './testing/event-loop'
import { rulesContext } from './testing/rules-context'

const webFetch = BUILTIN_TOOLS.find((t) => t.name === 'web_fetch')!
const contexts: TestContext[] = []
function track<T extends TestContext>(ctx: T): T {
  contexts.push(ctx)
  return ctx
}
/** Loopback is reachable only through a rule that names it: the test server is 127.0.0.1. */
const LOOPBACK_NAMED: CompactPermission = { '*': 'allow', web_fetch: { '*': 'allow', '127.0.0.1': 'allow' } }
const fetchAs = (rules: CompactPermission, input: Record<string, unknown>) => track(rulesContext(rules)).run(webFetch, input)
afterEach(() => contexts.splice(0).forEach((c) => c.cleanup()))

const page = `<!doctype html><html><head><title>Docs &amp; Guides</title><style>body{color:red}</style>
<script>alert("x")</script></head><body><h1>Install</h1><p>Run <code>npm&nbsp;i</code> &lt;pkg&gt; &#8212; done&#x21;</p>
<ul><li>one</li><li>two</li></ul><!-- hidden comment --></body></html>`

const python = 'def area(r):\n    if r > 0:\n        return 3.14 * r ** 2  # __init__\n    return 0'
/** The three pages from issue 9, and one with the rest of what a docs page has. */
const PAGES: Record<string, string> = {
  '/attr': '<html><body><p>See <a title="1 > 0" href="/guide">the guide</a> now.</p></body></html>',
  '/pre': `<html><body><p>Example:</p><pre>${python.replace(/>/g, '&gt;')}</pre></body></html>`,
  '/links': '<html><body><p><a href="https://example.com/a_b?x=1&amp;y=2">absolute</a>, <a href="rel/page.html#top">relative</a>, <a href="javascript:alert(1)">script</a></p></body></html>',
  '/docs': `<html><body><h2>API</h2><pre><code class="language-js">const a = \`x\`\nif (a) {\n  run()\n}</code></pre>
<table><thead><tr><th>name</th><th>type</th></tr></thead><tbody><tr><td>id</td><td><code>int</code></td></tr></tbody></table>
<p><img src="/logo.png" alt="Logo"></p></body></html>`,
}

let server: http.Server
let base: string
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const hop = /^\/hop\/(\d+)$/.exec(url.pathname)
    if (url.pathname === '/page') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
    else if (PAGES[url.pathname]) res.writeHead(200, { 'content-type': 'text/html' }).end(PAGES[url.pathname])
    else if (url.pathname === '/plain') res.writeHead(200, { 'content-type': 'text/plain' }).end('just text')
    else if (url.pathname === '/latin1') res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9]))
    else if (url.pathname === '/gzip') res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(zlib.gzipSync('unzipped text'))
    else if (url.pathname === '/moved') res.writeHead(302, { location: '/plain' }).end()
    else if (hop) res.writeHead(302, { location: Number(hop[1]) > 0 ? `/hop/${Number(hop[1]) - 1}` : '/plain' }).end()
    else if (url.pathname === '/to') res.writeHead(307, { location: url.searchParams.get('u') ?? '/' }).end()
    else if (url.pathname === '/hang') res.writeHead(200, { 'content-type': 'text/plain' }).write('partial')
    else if (url.pathname === '/image') res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50]))
    else if (url.pathname === '/big-html') {
      const row = '<div><h2>Title <a href="/a">link</a></h2><p>Some <b>bold</b> text with <code>code</code>.</p><ul><li>one</li></ul></div>\n'
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body>${row.repeat(Math.round(1_000_000 / row.length))}</body></html>`)
    } else if (url.pathname === '/huge') {
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

describe('HTML to Markdown (turndown)', () => {
  it('keeps the title and structure, drops scripts, styles and comments, decodes entities', () => {
    expect(htmlToMarkdown(page, 'https://x.dev/')).toBe('Docs & Guides\n\n# Install\n\nRun `npm\u00a0i` <pkg> — done!\n\n-   one\n-   two')
  })

  it.each([
    ['/attr', `See [the guide](${'BASE'}/guide "1 > 0") now.`],
    ['/pre', `Example:\n\n\`\`\`\n${python}\n\`\`\``],
    ['/links', '[absolute](https://example.com/a_b?x=1&y=2), [relative](BASE/rel/page.html#top), script'],
    ['/docs', '## API\n\n```js\nconst a = `x`\nif (a) {\n  run()\n}\n```\n\n| name | type |\n| --- | --- |\n| id  | `int` |\n\n![Logo](BASE/logo.png)'],
  ])('%s through web_fetch from a loopback server', async (route, expected) => {
    const r = await fetchAs(LOOPBACK_NAMED, { url: `${base}${route}` })
    expect(r).toMatchObject({ ok: true, output: expected.replaceAll('BASE', base) })
    // No attribute text leaks into the text (the old converter turned title="1 > 0" into `0">`).
    expect(r.output).not.toContain('0">')
  })

  it('converts a 1 MB page without stalling the event loop over 50 ms', async () => {
    const { result: r } = await withoutStall(() => fetchAs(LOOPBACK_NAMED, { url: `${base}/big-html` }))
    expect(r.ok).toBe(true)
    expect(r.metadata).toMatchObject({ truncated: true })
    expect(r.output.startsWith(`## Title [link](${base}/a)\n\nSome **bold** text with \`code\`.\n\n-   one`)).toBe(true)
  }, 60_000)
})

describe('web_fetch', () => {
  it('asks permission for the host, returns raw HTML with format html', async () => {
    const ctx = track(makeContext())
    const r = await runTool(webFetch, { url: `${base}/page`, format: 'html' }, ctx)
    expect(r).toMatchObject({ ok: true, output: page })
    expect(ctx.asks[0]).toEqual({ ask: { kind: 'host', subjects: ['127.0.0.1'] }, display: { summary: `Fetch ${base}/page` } })
  })

  it('decodes the charset the server names and gzip bodies', async () => {
    expect((await fetchAs(LOOPBACK_NAMED, { url: `${base}/latin1` })).output).toBe('café')
    expect((await fetchAs(LOOPBACK_NAMED, { url: `${base}/gzip` })).output).toBe('unzipped text')
  })

  it('follows up to 5 redirects, and refuses the 6th', async () => {
    expect((await fetchAs(LOOPBACK_NAMED, { url: `${base}/moved` })).output).toBe('just text')
    expect((await fetchAs(LOOPBACK_NAMED, { url: `${base}/hop/4` })).output).toBe('just text')
    const six = await fetchAs(LOOPBACK_NAMED, { url: `${base}/hop/5` })
    expect(six).toMatchObject({ ok: false, output: `Too many redirects (more than 5) starting from ${base}/hop/5; the last one pointed to ${base}/plain.` })
  })

  const to = (target: string) => `${base}/to?u=${encodeURIComponent(target)}`
  it.each([
    ['file:///etc/passwd', 'HOP redirects to file:///etc/passwd; web_fetch only follows http and https.'],
    ['http://10.0.0.1/admin', 'Refused to fetch http://10.0.0.1/admin: 10.0.0.1 resolves to 10.0.0.1, a private network address.'],
    ['http://169.254.169.254/latest/meta-data/', 'Refused to fetch http://169.254.169.254/latest/meta-data/: 169.254.169.254 resolves to 169.254.169.254, a link-local address.'],
    ['http://[::1]:1/', 'Refused to fetch http://[::1]:1/: [::1] resolves to ::1, a loopback address.'],
    ['http://[::ffff:127.0.0.1]:1/', 'Refused to fetch http://[::ffff:7f00:1]:1/: [::ffff:7f00:1] resolves to ::ffff:7f00:1, a loopback address.'],
    ['http://0.0.0.0:1/', 'Refused to fetch http://0.0.0.0:1/: 0.0.0.0 resolves to 0.0.0.0, the unspecified address (this machine).'],
    ['http://localhost:1/', 'Refused to fetch http://localhost:1/: localhost resolves to 127.0.0.1, a loopback address.'],
  ])('a redirect to %s is refused (each hop is checked)', async (target, message) => {
    const r = await fetchAs(LOOPBACK_NAMED, { url: to(target) })
    expect(r.ok).toBe(false)
    const wanted = message.replace('HOP', to(target))
    expect(r.output.slice(0, wanted.length)).toBe(wanted)
  })

  it('a redirect to a host the rules do not allow is named, not followed', async () => {
    const r = await fetchAs({ '*': 'allow', web_fetch: { '*': 'ask', '127.0.0.1': 'allow' } }, { url: to('http://example.com/x') })
    expect(r.output).toBe(`${to('http://example.com/x')} redirects (HTTP 307) to http://example.com/x, on another host your rules do not allow without asking. Call web_fetch with that URL to follow it.`)
  })

  it.each([
    ['a catch-all allow (as --yes grants)', { '*': 'allow' }],
    ['a web_fetch catch-all', { '*': 'allow', web_fetch: 'allow' }],
    ['a rule naming another host', { '*': 'allow', web_fetch: { '*': 'allow', 'localhost': 'allow' } }],
  ] as Array<[string, CompactPermission]>)('loopback is refused under %s; only a rule naming the host opens it', async (_what, rules) => {
    const r = await fetchAs(rules, { url: `${base}/plain` })
    expect(r).toMatchObject({ ok: false, output: `Refused to fetch ${base}/plain: 127.0.0.1 resolves to 127.0.0.1, a loopback address. web_fetch reaches loopback, private and link-local addresses only when a web_fetch rule in permissions.jsonc names the host, e.g. "web_fetch": { "127.0.0.1": "allow" }.` })
    expect((await fetchAs(LOOPBACK_NAMED, { url: `${base}/plain` })).output).toBe('just text')
  })

  it("never reaches the daemon's own port, even with a rule naming the host", async () => {
    const own = http.createServer((_req, res) => res.end('the daemon'))
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve))
    const ownPort = (own.address() as AddressInfo).port
    protectLocalPort(ownPort)
    try {
      for (const host of ['127.0.0.1', 'localhost']) {
        const r = await fetchAs({ '*': 'allow', web_fetch: { [host]: 'allow' } }, { url: `http://${host}:${ownPort}/` })
        expect(r.ok).toBe(false)
        expect(r.output).toMatch(new RegExp(`port ${ownPort} is Agentry's own server; web_fetch never connects to it\\.$`))
      }
    } finally {
      await new Promise<void>((resolve) => own.close(() => resolve()))
    }
  })

  it('reports HTTP errors, binary content and bad URLs as tool errors', async () => {
    const ctx = track(makeContext())
    expect(await runTool(webFetch, { url: `${base}/missing` }, ctx)).toMatchObject({ ok: false, output: `HTTP 404 Not Found for ${base}/missing.\nno such page` })
    expect((await runTool(webFetch, { url: `${base}/image` }, ctx)).output).toBe(`${base}/image returned image/png, which is not text; web_fetch only returns text content.`)
    expect((await runTool(webFetch, { url: 'file:///etc/passwd' }, ctx)).output).toBe('url must use http or https, not file.')
    expect((await runTool(webFetch, { url: 'not a url' }, ctx)).output).toBe('url is not a valid URL: "not a url". Send a full URL like https://example.com/page.')
    // Refused before the permission gate: nothing to approve.
    expect(ctx.asks).toHaveLength(2)
  })

  it('cuts bodies over 5 MB and says so', async () => {
    const r = await runTool(webFetch, { url: `${base}/huge` }, track(makeContext()))
    const full = fs.readFileSync(r.metadata?.fullOutputPath as string, 'utf8')
    expect(full.length).toBe(5 * 1024 * 1024 + `\n… [body cut at ${5 * 1024 * 1024} bytes]`.length)
    expect(full.endsWith(`… [body cut at ${5 * 1024 * 1024} bytes]`)).toBe(true)
  })

  it('stops waiting on a hanging server when the run is aborted', async () => {
    const ctx = track(makeContext())
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
    const closedPort = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const r = await runTool(webFetch, { url: `http://127.0.0.1:${closedPort}/x` }, track(makeContext()))
    expect(r).toMatchObject({ ok: false, output: `Could not fetch http://127.0.0.1:${closedPort}/x (connect ECONNREFUSED 127.0.0.1:${closedPort}).` })
  })
})
