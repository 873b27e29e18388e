import { createBridgeClient, type BridgeClient } from '../../src-shared/bridge-client'
import type { AgentryApi, AppCommand } from '../../src-preload/api'
import { createIpcTransport } from './ipc-transport'
import { createWsTransport, type WebSocketCtor } from './ws-transport'

declare global {
  interface Window {
    /** Present only in the Electron app, put there by the preload. */
    agentry?: AgentryApi
  }
}

const TOKEN_KEY = 'agentry.token'

export interface HostConnection {
  client: BridgeClient
  transport: 'ipc' | 'websocket'
  /** Commands from the native shell (menu, open-folder dialog); never fires in the browser. */
  onAppCommand(cb: (command: AppCommand) => void): () => void
}

/**
 * Picks the transport once, at startup: the preload's IPC object in the desktop app, otherwise the daemon's
 * WebSocket on the host that served this page, authenticated with the token from the page URL.
 */
export function connectToHost(): HostConnection {
  const api = window.agentry
  if (api) return { client: createBridgeClient(createIpcTransport(api)), transport: 'ipc', onAppCommand: (cb) => api.onAppCommand(cb) }
  const fromUrl = new URLSearchParams(location.search).get('token')
  // Kept for this tab so an in-app navigation that drops the query string does not lock the page out.
  if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl)
  const token = fromUrl ?? sessionStorage.getItem(TOKEN_KEY)
  if (!token) {
    throw new Error('No access token in the page URL. Open the exact URL printed by "agentry serve" (it ends with ?token=…).')
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  const transport = createWsTransport({
    url: `${scheme}//${location.host}/bridge?token=${encodeURIComponent(token)}`,
    WebSocket: WebSocket as unknown as WebSocketCtor,
    checkAccess: () => checkToken(token),
  })
  // The browser has no native shell sending commands.
  return { client: createBridgeClient(transport), transport: 'websocket', onAppCommand: () => () => {} }
}

/** The page itself is served only with a valid token: 403 means the host is up and our token is stale. */
async function checkToken(token: string): Promise<'ok' | 'refused' | 'unreachable'> {
  try {
    const res = await fetch(`${location.origin}/?token=${encodeURIComponent(token)}`, { method: 'HEAD', cache: 'no-store' })
    return res.status === 403 ? 'refused' : 'ok'
  } catch (err) {
    // Nothing listening (the host is restarting): keep reconnecting quietly.
    console.debug('[agentry] host not reachable yet:', err)
    return 'unreachable'
  }
}

/** The desktop app's OS folder dialog (null in a browser tab): the folder it opens arrives as a `workspace-opened` app command. */
export function nativeFolderPicker(): (() => Promise<void>) | null {
  const api = window.agentry
  return api ? () => api.pickFolder() : null
}
