import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, Menu, Notification, safeStorage, session } from 'electron'
import { resolveDataDir } from '../config'
import { containProcessFaults, createHost, type Host } from '../host'
import { serveLocalSocket } from '../local-socket'
import { createFileKeyStore } from '../models'
import { APP_COMMAND_CHANNEL, PICK_FOLDER_CHANNEL } from '../../src-preload/channels'
import type { AppCommand } from '../../src-preload/api'
import { appMenuTemplate } from './app-menu'
import { APP_URL, isTrustedSender } from './app-origin'
import { createMainWindow } from './create-window'
import { registerIpcBridge } from './ipc-bridge'
import { explainNativeModuleError } from '../store'
import { watchForNotifications } from './notifications'
import { openFolder } from './open-folder'
import { registerAppScheme, serveRenderer } from './renderer-protocol'
import { createSafeStorageKeyStore } from './safe-storage-key-store'

/**
 * The desktop app's main process: one host (runtime + store) for the app's lifetime, one locked-down window that
 * reaches it over IPC, and the native extras (menu, open-folder dialog, notifications, keychain-backed keys).
 */
const here = path.dirname(fileURLToPath(import.meta.url))
const preloadPath = path.join(here, '../preload/index.cjs')
const rendererDir = path.join(here, '../renderer')
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined

let host: Host | undefined
let win: BrowserWindow | undefined
const disposers: (() => void)[] = []

registerAppScheme()

if (!app.requestSingleInstanceLock()) {
  // Another Agentry already owns the data dir; it focuses its window (second-instance below). This one did not
  // start, which `npm start` must be able to tell from the exit code.
  process.stderr.write('Agentry is already running; its window was brought to the front. Quit it first to start another.\n')
  app.exit(1)
} else {
  app.on('second-instance', () => {
    if (!win || win.isDestroyed()) return
    if (win.isMinimized()) win.restore()
    win.focus()
  })
  app.whenReady().then(start, fail)
}

async function start(): Promise<void> {
  // The same data dir as the CLI and the daemon, so `agentry` commands attach to the app's host.
  const dataDir = resolveDataDir(process.env)
  const keys = createSafeStorageKeyStore(dataDir, safeStorage, createFileKeyStore(dataDir))
  host = await createHost({ dataDir, keys, defaultWorkspace: app.getPath('home') })
  // A fault of one piece of work is logged with an id; the window and every other run go on.
  disposers.push(containProcessFaults(host.log))
  const api = host.api
  // `--debug` (or AGENTRY_DEBUG=1): every host answer is checked against the bridge contract, as in the tests.
  const debug = process.argv.includes('--debug') || Boolean(process.env.AGENTRY_DEBUG)
  const local = await serveLocalSocket({ api, dataDir, validateOutput: debug })
  disposers.push(() => void local.close())

  // The page gets no browser permissions (camera, geolocation, notifications …): the OS notifications come from here.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  if (!devServerUrl) serveRenderer(rendererDir)
  disposers.push(registerIpcBridge(ipcMain, api, (frame) => isTrustedSender(frame, devServerUrl), { validateOutput: debug }))

  const tell = (command: AppCommand): void => {
    if (win && !win.isDestroyed()) win.webContents.send(APP_COMMAND_CHANNEL, command)
  }
  const openWindow = (): void => {
    win = createMainWindow({ preload: preloadPath, url: devServerUrl ?? APP_URL, devServerUrl })
  }
  openWindow()

  const pickFolder = (): Promise<void> => {
    if (!win || win.isDestroyed()) return Promise.resolve()
    return openFolder(win, api, tell).catch((err: unknown) => dialog.showErrorBox('Could not open the folder', err instanceof Error ? err.message : String(err)))
  }
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate({ openFolder: () => void pickFolder() })))
  // The page's folder menu offers the same dialog (only the trusted page may ask for it).
  ipcMain.handle(PICK_FOLDER_CHANNEL, (e) => (isTrustedSender(e.senderFrame, devServerUrl) ? pickFolder() : undefined))
  disposers.push(() => ipcMain.removeHandler(PICK_FOLDER_CHANNEL))

  if (Notification.isSupported()) {
    disposers.push(
      watchForNotifications(api, {
        shouldNotify: () => !win || win.isDestroyed() || !win.isFocused(),
        notify: ({ title, body }, rootSessionId) => {
          const n = new Notification({ title, body })
          n.on('click', () => {
            if (!win || win.isDestroyed()) openWindow()
            win?.show()
            win?.focus()
            tell({ type: 'open-session', sessionId: rootSessionId })
          })
          n.show()
        },
      }),
    )
  }

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow()
  })
  app.on('window-all-closed', () => {
    // macOS apps stay alive without windows; runs keep going and the dock icon reopens the window.
    if (process.platform !== 'darwin') app.quit()
  })
  let stopping = false
  app.on('before-quit', (event) => {
    if (stopping || !host) return
    stopping = true
    event.preventDefault()
    for (const dispose of disposers.reverse()) dispose()
    host.stop().then(
      () => app.exit(0),
      (err: unknown) => {
        console.error('[agentry] stopping the host failed:', err)
        app.exit(1)
      },
    )
  })
}

function fail(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err)
  const explained = explainNativeModuleError(err, { electron: process.versions.electron, modules: process.versions.modules })
  console.error('[agentry] fatal:', err)
  dialog.showErrorBox('Agentry could not start', explained ?? message)
  app.exit(1)
}
