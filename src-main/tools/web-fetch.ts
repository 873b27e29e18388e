import { z } from 'zod'
import { htmlToMarkdown } from './html-to-markdown'
import { RefusedDestination } from './destination'
import type { GetResponse } from './http-get'
import { defineTool, ToolError, type ToolContext } from './tool'

export const WEB_FETCH_TIMEOUT_MS = 30_000
/** Bytes read from the response body; the rest is cut off. */
export const MAX_FETCH_BYTES = 5 * 1024 * 1024
export const MAX_REDIRECTS = 5
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

export const WebFetchParameters = z.object({
  url: z.string().min(1).describe('The http:// or https:// URL to fetch.'),
  format: z.enum(['markdown', 'html']).optional().describe('"markdown" (default) turns HTML into Markdown (links, code blocks and tables kept); "html" returns the raw markup.'),
})

const description = `Fetch a web page or other text resource over http(s) and return its content.
- HTML is converted to Markdown (scripts and styles removed; links, code blocks and tables kept) unless format is "html".
- Times out after ${WEB_FETCH_TIMEOUT_MS / 1000} s; bodies over ${MAX_FETCH_BYTES / 1024 / 1024} MB are cut. Binary content (images, archives) is refused.
- Follows up to ${MAX_REDIRECTS} redirects. A redirect to another host is followed only if your rules already allow that host; otherwise the result names the new URL so you can fetch it (it may need approval).
- Loopback, private and link-local addresses (localhost, 10.x, 192.168.x, 169.254.x, …) are refused unless a rule names the host.`

function parseUrl(raw: string): URL {
  if (!URL.canParse(raw)) throw new ToolError(`url is not a valid URL: ${JSON.stringify(raw)}. Send a full URL like https://example.com/page.`)
  const url = new URL(raw)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`url must use http or https, not ${url.protocol.replace(/:$/, '')}.`)
  }
  return url
}

const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml|x-yaml|yaml|toml)|image\/svg\+xml)/i

/** A network failure or timeout as a message for the model; aborts and our own errors pass through. */
function fetchFailure(e: unknown, url: URL, signal: AbortSignal, timeout: AbortSignal): unknown {
  if (signal.aborted || ToolError.isInstance(e)) return e
  if (e instanceof RefusedDestination) return new ToolError(`Refused to fetch ${url.href}: ${e.message}`)
  if (timeout.aborted) return new ToolError(`Fetching ${url.href} timed out after ${WEB_FETCH_TIMEOUT_MS / 1000} s.`)
  return new ToolError(`Could not fetch ${url.href} (${e instanceof Error ? e.message : String(e)}).`)
}

/** The body as text, in the charset the server names (UTF-8 when it names none or one we do not know). */
function decodeText(bytes: Uint8Array, contentType: string): string {
  const charset = /charset="?([\w.:-]+)/i.exec(contentType)?.[1]
  if (charset) {
    try {
      return new TextDecoder(charset).decode(bytes)
    } catch (e) {
      // An unknown label: the page is most likely UTF-8 anyway.
      if (!(e instanceof RangeError)) throw e
    }
  }
  return new TextDecoder().decode(bytes)
}

/** May this hop's host be reached at a non-public address? Only if a rule names it (no catch-all, no --yes). */
function allowsPrivate(ctx: ToolContext, url: URL): boolean {
  return ctx.checkRules({ kind: 'host', subjects: [url.hostname] }, { named: true }) === 'allow'
}

export const webFetchTool = defineTool({
  name: 'web_fetch',
  description,
  parameters: WebFetchParameters,
  permission(input) {
    return { kind: 'host', subjects: [parseUrl(input.url).hostname] }
  },
  display(input) {
    return { summary: `Fetch ${input.url}` }
  },
  async execute(input, ctx) {
    let url = parseUrl(input.url)
    const timeout = AbortSignal.timeout(WEB_FETCH_TIMEOUT_MS)
    const signal = AbortSignal.any([ctx.signal, timeout])
    const headers = { 'user-agent': 'Agentry web_fetch', accept: 'text/html, text/*;q=0.9, */*;q=0.5', 'accept-encoding': 'gzip, deflate, br' }
    const { httpGet, readCapped } = await import('./http-get')
    let res: GetResponse
    try {
      // Redirects are followed by hand, so every hop is checked: its scheme, its host's rules, its address.
      for (let hops = 0; ; hops++) {
        res = await httpGet(url, { signal, headers, allowPrivate: allowsPrivate(ctx, url) })
        if (!REDIRECT_STATUSES.has(res.status) || !res.location) break
        res.body.destroy()
        if (hops === MAX_REDIRECTS) throw new ToolError(`Too many redirects (more than ${MAX_REDIRECTS}) starting from ${input.url}; the last one pointed to ${new URL(res.location, url).href}.`)
        if (!URL.canParse(res.location, url.href)) throw new ToolError(`${url.href} redirects to an invalid URL (${JSON.stringify(res.location)}).`)
        const next = new URL(res.location, url)
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new ToolError(`${url.href} redirects to ${next.href}; web_fetch only follows http and https.`)
        }
        if (next.hostname !== url.hostname && ctx.checkRules({ kind: 'host', subjects: [next.hostname] }) !== 'allow') {
          return {
            output: `${url.href} redirects (HTTP ${res.status}) to ${next.href}, on another host your rules do not allow without asking. Call web_fetch with that URL to follow it.`,
            metadata: { status: res.status, redirect: next.href },
          }
        }
        url = next
      }
    } catch (e) {
      throw fetchFailure(e, url, ctx.signal, timeout)
    }

    if (res.contentType && !TEXTUAL.test(res.contentType)) {
      res.body.destroy()
      throw new ToolError(`${url.href} returned ${res.contentType}, which is not text; web_fetch only returns text content.`)
    }
    const { bytes, cut } = await readCapped(res.body, MAX_FETCH_BYTES).catch((e: unknown) => Promise.reject(fetchFailure(e, url, ctx.signal, timeout)))
    const raw = decodeText(bytes, res.contentType)
    const isHtml = /html/i.test(res.contentType) || (!res.contentType && /^\s*<(!doctype html|html)/i.test(raw))
    const body =
      isHtml && input.format !== 'html'
        ? await htmlToMarkdown(raw, url.href, signal).catch((e: unknown) => Promise.reject(fetchFailure(e, url, ctx.signal, timeout)))
        : raw
    const cutNote = cut ? `\n… [body cut at ${MAX_FETCH_BYTES} bytes]` : ''
    if (res.status < 200 || res.status >= 300) {
      throw new ToolError(`HTTP ${res.status} ${res.statusText} for ${url.href}.${body ? `\n${body.slice(0, 2_000)}` : ''}`)
    }
    return { output: `${body}${cutNote}`, metadata: { url: url.href, status: res.status, contentType: res.contentType, bytes: bytes.length } }
  },
})
