import { BrowserWindow, shell } from 'electron'
import { isAppUrl, isExternalLink } from './app-origin'

export interface WindowOptions {
  preload: string
  /** `app://agentry/index.html`, or the dev server URL */
  url: string
  devServerUrl?: string
}

const MAX_RELOADS_PER_MINUTE = 3

/**
 * The main window, locked down: isolated, sandboxed, no Node in the page, no navigation away from the app and no
 * new windows (links open in the user's browser). A crashed renderer is reloaded and catches up through the bridge.
 */
export function createMainWindow(options: WindowOptions): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Agentry',
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    },
  })
  win.once('ready-to-show', () => win.show())

  const wc = win.webContents
  // The UI is a single page: any navigation is a link or an attack, never an app screen.
  wc.on('will-navigate', (event) => {
    event.preventDefault()
    if (isExternalLink(event.url)) void shell.openExternal(event.url)
  })
  wc.on('will-frame-navigate', (event) => {
    if (event.isMainFrame) return // handled by will-navigate
    if (!isAppUrl(event.url, options.devServerUrl)) event.preventDefault()
  })
  wc.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  wc.on('will-attach-webview', (event) => event.preventDefault())

  const reloads: number[] = []
  wc.on('render-process-gone', (_event, details) => {
    console.error(`[agentry] the window's renderer went away (${details.reason}, exit code ${details.exitCode})`)
    if (details.reason === 'clean-exit' || win.isDestroyed()) return
    const now = Date.now()
    while (reloads.length > 0 && now - reloads[0] > 60_000) reloads.shift()
    // A page that crashes on load would otherwise reload forever and peg the CPU.
    if (reloads.length >= MAX_RELOADS_PER_MINUTE) {
      console.error('[agentry] the renderer crashed repeatedly; not reloading again. Use View › Reload to try again.')
      return
    }
    reloads.push(now)
    wc.reload()
  })

  void win.loadURL(options.url)
  return win
}
