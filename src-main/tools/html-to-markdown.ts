import type { HtmlJob, HtmlReply } from './html-worker'
import { ToolError } from './tool'
import { acquireWorker, discardWorker, releaseWorker } from './worker-pool'

let nextId = 0

/**
 * A page's HTML as Markdown (links, code blocks, tables kept), converted in a worker thread (html-worker.ts): turndown
 * takes seconds on a large page, which must not stall the host. Aborting `signal` stops the conversion.
 */
export async function htmlToMarkdown(html: string, baseUrl: string, signal: AbortSignal): Promise<string> {
  const worker = await acquireWorker('html', signal)
  const id = ++nextId
  return new Promise<string>((resolve, reject) => {
    const finish = (clean: boolean) => {
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
      signal.removeEventListener('abort', onAbort)
      if (clean) releaseWorker('html', worker)
      else discardWorker('html', worker)
    }
    const onMessage = (m: HtmlReply) => {
      if (m.id !== id) return
      finish(true)
      if ('error' in m) reject(new ToolError(`Could not convert the page to Markdown (${m.error}); call web_fetch again with format "html" for the raw page.`))
      else resolve(m.markdown)
    }
    const onError = (err: Error) => {
      finish(false)
      reject(new Error(`web_fetch's HTML worker failed: ${err.message}`))
    }
    const onExit = (code: number) => {
      finish(false)
      reject(new Error(`web_fetch's HTML worker exited (code ${code})`))
    }
    const onAbort = () => {
      finish(false)
      reject(signal.reason)
    }
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
    signal.addEventListener('abort', onAbort, { once: true })
    const job: HtmlJob = { id, html, baseUrl }
    worker.postMessage(job)
  })
}
