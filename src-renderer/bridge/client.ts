import type { AgentryApi } from '../../src-preload/api'
import { createIpcBridgeClient } from './ipc-client'
import type { BridgeClient } from './types'
import { createWsBridgeClient, type WebSocketCtor } from './ws-client'

declare global {
  interface Window {
    /** Present only in the Electron app, put there by the preload. */
    agentry?: AgentryApi
  }
}

const TOKEN_KEY = 'agentry.token'

/**
 * Picks the transport once, at startup: the preload's IPC object in the desktop app, otherwise the daemon's
 * WebSocket on the host that served this page, authenticated with the token from the page URL.
 */
export function createBridgeClient(): BridgeClient {
  if (window.agentry) return createIpcBridgeClient(window.agentry)
  const fromUrl = new URLSearchParams(location.search).get('token')
  // Kept for this tab so an in-app navigation that drops the query string does not lock the page out.
  if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl)
  const token = fromUrl ?? sessionStorage.getItem(TOKEN_KEY)
  if (!token) {
    throw new Error('No access token in the page URL. Open the exact URL printed by "agentry serve" (it ends with ?token=…).')
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return createWsBridgeClient({
    url: `${scheme}//${location.host}/bridge?token=${encodeURIComponent(token)}`,
    WebSocket: WebSocket as unknown as WebSocketCtor,
    checkAccess: () => checkToken(token),
  })
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
