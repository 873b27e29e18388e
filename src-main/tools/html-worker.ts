import { gfm } from '@joplin/turndown-plugin-gfm'
import TurndownService from 'turndown'
import { isMainThread, parentPort, workerData } from 'node:worker_threads'

/**
 * web_fetch's HTML-to-Markdown conversion (turndown on a real DOM parser), run in a worker thread: turndown takes
 * seconds on a megabyte of HTML, which must not stall the host's event loop.
 *
 * Node runs this file directly as the worker (type stripping in development, a bundle entry in builds), so it imports
 * only packages and Node built-ins — no relative modules. web-fetch.ts talks to it through the worker pool.
 */

export interface HtmlJob {
  id: number
  html: string
  /** the page's final URL: relative links and images are made absolute against it */
  baseUrl: string
}

export type HtmlReply = { id: number; markdown: string } | { id: number; error: string }

/** The few DOM members the rules read (the service hands them DOM nodes from its parser). */
interface DomNode {
  nodeName: string
  textContent: string | null
  getAttribute(name: string): string | null
  querySelector(selector: string): DomNode | null
}

/** The absolute URL of a link or image; null for one a reader cannot follow (malformed, script, inline data). */
function absolute(href: string, base: string): string | null {
  if (!URL.canParse(href, base)) return null
  const url = new URL(href, base)
  return url.protocol === 'javascript:' || url.protocol === 'data:' ? null : url.href
}

/** A fence longer than any backtick run inside the code, so the block cannot end early. */
function fenceFor(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length))
  return '`'.repeat(Math.max(3, longest + 1))
}

function languageOf(node: DomNode): string {
  const classes = `${node.getAttribute('class') ?? ''} ${node.querySelector('code')?.getAttribute('class') ?? ''}`
  return /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? ''
}

export function htmlToMarkdown(html: string, baseUrl: string): string {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '_' })
  service.use(gfm)
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed'])
  // Of the head, only the title is for a reader: it becomes the first line.
  service.addRule('head', {
    filter: (node) => node.nodeName === 'HEAD',
    replacement: (_content, node) => {
      const title = ((node as unknown as DomNode).querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim()
      return title ? `${title}\n\n` : ''
    },
  })
  // Every <pre> is code, with or without an inner <code>: its text verbatim (indentation, `*`, `_` untouched).
  service.addRule('preformatted', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const el = node as unknown as DomNode
      const code = (el.textContent ?? '').replace(/\n$/, '')
      const fence = fenceFor(code)
      return `\n\n${fence}${languageOf(el)}\n${code}\n${fence}\n\n`
    },
  })
  service.addRule('absoluteLinks', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const el = node as unknown as DomNode
      const href = absolute(el.getAttribute('href') ?? '', baseUrl)
      if (!href || !content.trim()) return content
      const title = el.getAttribute('title')
      return `[${content}](${href.replace(/[()]/g, (c) => encodeURIComponent(c))}${title ? ` "${title.replace(/["\\]/g, '\\$&')}"` : ''})`
    },
  })
  service.addRule('absoluteImages', {
    filter: 'img',
    replacement: (_content, node) => {
      const el = node as unknown as DomNode
      const alt = (el.getAttribute('alt') ?? '').replace(/[[\]]/g, '\\$&')
      const src = absolute(el.getAttribute('src') ?? '', baseUrl)
      return src ? `![${alt}](${src.replace(/[()]/g, (c) => encodeURIComponent(c))})` : alt
    },
  })
  return (
    service
      .turndown(html)
      // The head counts as inline for turndown, so whitespace after its last element trails the title line.
      .replace(/^([^\n]*?)[ \t]+\n/, '$1\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  )
}

function runWorker(): void {
  const port = parentPort
  if (!port) return
  port.on('message', (job: HtmlJob) => {
    let reply: HtmlReply
    try {
      reply = { id: job.id, markdown: htmlToMarkdown(job.html, job.baseUrl) }
    } catch (e) {
      // The page could not be converted; web_fetch tells the model and suggests the raw HTML.
      reply = { id: job.id, error: e instanceof Error ? e.message : String(e) }
    }
    port.postMessage(reply)
  })
}

if (!isMainThread && (workerData as { agentry?: string } | null)?.agentry === 'html') runWorker()
