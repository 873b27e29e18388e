/**
 * What web_fetch may connect to, as far as it needs no network code: the ports this process serves, and the refusal.
 * (The HTTP client itself, http-get.ts, is loaded on the first fetch: it pulls in Node's http, https, zlib and dns,
 * which a command that never fetches should not pay for at start.)
 */

/** Ports this process serves on loopback (the daemon's): never reachable by a tool, whatever the rules say. */
const ownPorts = new Set<number>()

/** Called by whatever listens on loopback in this process (the daemon), so no fetch can reach it. */
export function protectLocalPort(port: number): void {
  ownPorts.add(port)
}

export function isOwnPort(port: number): boolean {
  return ownPorts.has(port)
}

export class RefusedDestination extends Error {
  override readonly name = 'RefusedDestination'
}
