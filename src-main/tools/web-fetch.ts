import { z } from 'zod'
import { htmlToText } from './html-to-text'
import { defineTool, ToolError } from './tool'

export const WEB_FETCH_TIMEOUT_MS = 30_000
/** Bytes read from the response body; the rest is cut off. */
export const MAX_FETCH_BYTES = 5 * 1024 * 1024
const MAX_REDIRECTS = 5

export const WebFetchParameters = z.object({
  url: z.string().min(1).describe('The http:// or https:// URL to fetch.'),
  format: z.enum(['text', 'html']).optional().describe('"text" (default) turns HTML into readable text; "html" returns the raw markup.'),
})

const description = `Fetch a web page or other text resource over http(s) and return its content.
- HTML is converted to plain text (scripts, styles and tags removed) unless format is "html".
- Times out after ${WEB_FETCH_TIMEOUT_MS / 1000} s; bodies over ${MAX_FETCH_BYTES / 1024 / 1024} MB are cut. Binary content (images, archives) is refused.
- Redirects to another host are not followed: the result names the new URL so you can fetch it (it may need approval).`

function parseUrl(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    // URL's own message ("Invalid URL") adds nothing to this one.
    throw new ToolError(`url is not a valid URL: ${JSON.stringify(raw)}. Send a full URL like https://example.com/page.`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError(`url must use http or https, not ${url.protocol.replace(/:$/, '')}.`)
  }
  return url
}

const TEXTUAL = /^(text\/|application\/(json|xml|xhtml\+xml|javascript|ld\+json|rss\+xml|atom\+xml|x-yaml|yaml|toml)|image\/svg\+xml)/i

/** A network failure or timeout as a message for the model; aborts and our own errors pass through. */
function fetchFailure(e: unknown, url: URL, signal: AbortSignal): unknown {
  if (signal.aborted || ToolError.isInstance(e)) return e
  if (e instanceof Error && e.name === 'TimeoutError') return new ToolError(`Fetching ${url.href} timed out after ${WEB_FETCH_TIMEOUT_MS / 1000} s.`)
  const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : ''
  return new ToolError(`Could not fetch ${url.href} (${e instanceof Error ? e.message : String(e)}${cause}).`)
}

async function readCapped(res: Response): Promise<{ bytes: Uint8Array; cut: boolean }> {
  if (!res.body) return { bytes: new Uint8Array(), cut: false }
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let cut = false
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const room = MAX_FETCH_BYTES - size
    if (value.length >= room) {
      chunks.push(value.subarray(0, room))
      size += room
      cut = true
      await reader.cancel()
      break
    }
    chunks.push(value)
    size += value.length
  }
  return { bytes: Buffer.concat(chunks), cut }
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
    const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(WEB_FETCH_TIMEOUT_MS)])
    let res: Response
    try {
      for (let hops = 0; ; hops++) {
        // Redirects are followed by hand: a hop to another host must pass the permission gate.
        res = await fetch(url, { signal, redirect: 'manual', headers: { 'user-agent': 'Agentry web_fetch', accept: 'text/html, text/*;q=0.9, */*;q=0.5' } })
        const location = res.headers.get('location')
        if (res.status < 300 || res.status >= 400 || !location) break
        await res.body?.cancel()
        const next = new URL(location, url)
        if (next.host !== url.host || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
          return { output: `${url.href} redirects (HTTP ${res.status}) to ${next.href}, on another host. Call web_fetch with that URL to follow it.`, metadata: { status: res.status, redirect: next.href } }
        }
        if (hops >= MAX_REDIRECTS) throw new ToolError(`Too many redirects (more than ${MAX_REDIRECTS}) starting from ${input.url}.`)
        url = next
      }
    } catch (e) {
      throw fetchFailure(e, url, ctx.signal)
    }

    const type = res.headers.get('content-type') ?? ''
    if (type && !TEXTUAL.test(type)) {
      await res.body?.cancel()
      throw new ToolError(`${url.href} returned ${type}, which is not text; web_fetch only returns text content.`)
    }
    const { bytes, cut } = await readCapped(res).catch((e: unknown) => Promise.reject(fetchFailure(e, url, ctx.signal)))
    const raw = new TextDecoder().decode(bytes)
    const isHtml = /html/i.test(type) || (!type && /^\s*<(!doctype html|html)/i.test(raw))
    const body = isHtml && input.format !== 'html' ? htmlToText(raw) : raw
    const cutNote = cut ? `\n… [body cut at ${MAX_FETCH_BYTES} bytes]` : ''
    if (!res.ok) {
      throw new ToolError(`HTTP ${res.status} ${res.statusText} for ${url.href}.${body ? `\n${body.slice(0, 2_000)}` : ''}`)
    }
    return { output: `${body}${cutNote}`, metadata: { url: url.href, status: res.status, contentType: type, bytes: bytes.length } }
  },
})
