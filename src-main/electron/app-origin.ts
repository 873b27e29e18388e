/**
 * Where the desktop app's page comes from. In production the renderer is served from a custom `app://agentry`
 * scheme (a real origin, unlike file://, so CSP and sender checks have something to hold on to); in development
 * from the electron-vite dev server, whose URL electron-vite passes in ELECTRON_RENDERER_URL.
 */
export const APP_SCHEME = 'app'
export const APP_HOST = 'agentry'
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

export interface FrameLike {
  readonly url: string
  readonly parent: unknown
}

/** True when `url` is a page of this app: `app://agentry/…`, or the dev server's origin when one is in use. */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false // not a URL at all, so not ours
  }
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST) return true
  if (!devServerUrl) return false
  const dev = new URL(devServerUrl)
  return parsed.protocol === dev.protocol && parsed.host === dev.host
}

/**
 * IPC is accepted only from our page's main frame: not from an iframe, not from a page the window was somehow
 * navigated to. (`senderFrame` is null when the frame has already gone away.)
 */
export function isTrustedSender(frame: FrameLike | null | undefined, devServerUrl?: string): boolean {
  if (!frame) return false
  if (frame.parent !== null) return false
  return isAppUrl(frame.url, devServerUrl)
}

export function isExternalLink(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:' || protocol === 'mailto:'
  } catch {
    return false // not a URL: nothing to open
  }
}
