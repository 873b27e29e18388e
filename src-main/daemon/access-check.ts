import crypto from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/** A fresh secret per start. It lives only in memory and in the URL printed to the user. */
export function createToken(): string {
  return crypto.randomBytes(24).toString('base64url')
}

/** Constant-time: hashing first makes both sides the same length, so not even the length leaks. */
export function tokenMatches(expected: string, given: string | null): boolean {
  if (given === null) return false
  const a = crypto.createHash('sha256').update(expected).digest()
  const b = crypto.createHash('sha256').update(given).digest()
  return crypto.timingSafeEqual(a, b)
}

export interface Refusal {
  status: 403 | 404 | 405
  reason: string
}

/**
 * Checks every request's Host and Origin against the loopback address we listen on. A Host other than
 * 127.0.0.1/localhost means a DNS-rebinding page is talking to us; a foreign Origin means another site is.
 */
export function checkOrigin(req: IncomingMessage, port: number): Refusal | undefined {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  const host = (req.headers.host ?? '').toLowerCase()
  if (!allowedHosts.includes(host)) {
    return { status: 403, reason: `Forbidden: Host header must be one of ${allowedHosts.join(', ')} (got ${JSON.stringify(host.slice(0, 100))}).` }
  }
  const origin = req.headers.origin
  if (origin !== undefined && !allowedHosts.some((h) => origin.toLowerCase() === `http://${h}`)) {
    return { status: 403, reason: 'Forbidden: requests from other sites are not accepted.' }
  }
  return undefined
}

export function tokenFrom(req: IncomingMessage): string | null {
  return new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('token')
}
