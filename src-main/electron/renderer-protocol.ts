import fs from 'node:fs'
import { pathToFileURL } from 'node:url'
import { net, protocol } from 'electron'
import { resolveStatic } from '../renderer-files'
import { APP_HOST, APP_SCHEME } from './app-origin'

/** No remote code, no inline scripts, no plugins, no framing; the page talks to the host over IPC only. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Inline style attributes are how React applies dynamic sizes; scripts stay strictly 'self'.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

/** Must run before the app is ready: makes `app://` a standard, secure origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }])
}

/** Serves the built renderer at `app://agentry/…` with the CSP header; nothing outside `rendererDir` is reachable. */
export function serveRenderer(rendererDir: string): void {
  const root = fs.realpathSync(rendererDir)
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url)
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 })
    const target = resolveStatic(root, url.pathname)
    if (target.kind !== 'file') return new Response('Not found', { status: 404 })
    const file = await net.fetch(pathToFileURL(target.file).toString())
    const headers = new Headers(file.headers)
    headers.set('Content-Security-Policy', APP_CSP)
    headers.set('X-Content-Type-Options', 'nosniff')
    return new Response(file.body, { status: file.status, headers })
  })
}
