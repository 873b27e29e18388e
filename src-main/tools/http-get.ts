import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { pipeline, type Readable } from 'node:stream'
import zlib from 'node:zlib'
import ipaddr from 'ipaddr.js'
import { isOwnPort, RefusedDestination } from './destination'

/**
 * One HTTP GET whose destination is checked on the address it actually connects to: the host name is resolved here,
 * every address it resolves to is checked, and the connection goes to exactly those addresses — a DNS answer that
 * changes between a check and the connect (rebinding) cannot slip through.
 */

/** 'public' for an ordinary internet address, else its special range (loopback, private, linkLocal, uniqueLocal, …). */
export function addressRange(address: string): string {
  // An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it is.
  const range = ipaddr.process(address).range()
  return range === 'unicast' ? 'public' : range
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a private network address',
  unspecified: 'the unspecified address (this machine)',
  carrierGradeNat: 'a carrier-grade NAT address',
}

export interface Destination {
  /** whether addresses outside the public internet may be reached (a rule names this host) */
  allowPrivate: boolean
  port: number
}

/** Why `address` may not be reached, or null when it may. */
export function refusal(host: string, address: string, d: Destination): string | null {
  const range = addressRange(address)
  const local = range === 'loopback' || range === 'unspecified'
  if (local && isOwnPort(d.port)) return `${host} (${address}) port ${d.port} is Agentry's own server; web_fetch never connects to it.`
  if (range === 'public' || d.allowPrivate) return null
  const what = RANGE_WORDS[range] ?? `a special-purpose address (${range})`
  return `${host} resolves to ${address}, ${what}. web_fetch reaches loopback, private and link-local addresses only when a web_fetch rule in permissions.jsonc names the host, e.g. "web_fetch": { "${host}": "allow" }.`
}

function guardedLookup(d: Destination): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family, hints: options.hints }, (err, addresses) => {
      if (err) return callback(err, '', 0)
      for (const a of addresses) {
        const why = refusal(hostname, a.address, d)
        if (why) return callback(new RefusedDestination(why), '', 0)
      }
      if (options.all) return callback(null, addresses)
      callback(null, addresses[0].address, addresses[0].family)
    })
  }
}

export interface GetResponse {
  status: number
  statusText: string
  location: string | undefined
  contentType: string
  /** the decoded (decompressed) body; not read yet */
  body: Readable
}

function decoded(res: http.IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? 'identity').toLowerCase().trim()
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null
  if (!decoder) {
    if (encoding !== 'identity') res.destroy(new Error(`unsupported content-encoding "${encoding}"`))
    return res
  }
  // A broken stream destroys the decoder with the error, which the body's reader then receives.
  return pipeline(res, decoder, () => undefined)
}

/** GET `url` (no redirects followed); rejects with RefusedDestination when its address may not be reached. */
export function httpGet(url: URL, o: { signal: AbortSignal; headers: Record<string, string>; allowPrivate: boolean }): Promise<GetResponse> {
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80)
  const d: Destination = { allowPrivate: o.allowPrivate, port }
  // An address literal is connected to without a lookup: check it here.
  const literal = url.hostname.replace(/^\[|\]$/g, '')
  if (ipaddr.isValid(literal)) {
    const why = refusal(url.hostname, literal, d)
    if (why) return Promise.reject(new RefusedDestination(why))
  }
  const client = url.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: 'GET', headers: o.headers, signal: o.signal, lookup: guardedLookup(d), agent: false }, (res) => {
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        location: res.headers.location,
        contentType: res.headers['content-type'] ?? '',
        body: decoded(res),
      })
    })
    req.once('error', reject)
    req.end()
  })
}

/** Reads at most `max` bytes of `body`, then stops reading (and closes the connection). */
export async function readCapped(body: Readable, max: number): Promise<{ bytes: Buffer; cut: boolean }> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = max - size
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room))
      body.destroy()
      return { bytes: Buffer.concat(chunks), cut: true }
    }
    chunks.push(chunk)
    size += chunk.length
  }
  return { bytes: Buffer.concat(chunks), cut: false }
}
