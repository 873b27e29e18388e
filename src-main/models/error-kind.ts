import { APICallError, InvalidResponseDataError, JSONParseError, TypeValidationError } from '@ai-sdk/provider'
import { isAbortError } from './abort'

/** How the retry loop should treat a provider failure. */
export type ErrorKind = 'abort' | 'auth' | 'transient' | 'fatal'

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
])
const NETWORK_MESSAGES = ['fetch failed', 'failed to fetch', 'cannot connect to api', 'terminated', 'other side closed']

/** HTTP status of a provider error: APICallError.statusCode, or a plain `status`/`statusCode` field. */
export function statusOf(e: unknown): number | undefined {
  if (APICallError.isInstance(e)) return e.statusCode
  if (typeof e !== 'object' || e === null) return undefined
  const record = e as Record<string, unknown>
  const status = record.statusCode ?? record.status
  return typeof status === 'number' ? status : undefined
}

/** Walks `cause` links (bounded, in case of cycles) looking for a network error code or message. */
export function isNetworkError(e: unknown): boolean {
  let current: unknown = e
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const record = current as Record<string, unknown>
    if (typeof record.code === 'string' && NETWORK_CODES.has(record.code)) return true
    if (typeof record.message === 'string') {
      const message = record.message.toLowerCase()
      if (NETWORK_MESSAGES.some((m) => message.startsWith(m))) return true
    }
    current = record.cause
  }
  return false
}

export function classifyError(e: unknown): ErrorKind {
  if (isAbortError(e)) return 'abort'
  const status = statusOf(e)
  if (status === 401 || status === 403) return 'auth'
  if (status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500)) return 'transient'
  if (status !== undefined) return 'fatal'
  if (isNetworkError(e)) return 'transient'
  return 'fatal'
}

/** Delay the server asked for, from `retry-after-ms` or `retry-after` (seconds or HTTP date). */
export function retryAfterMs(e: unknown, now = Date.now()): number | undefined {
  if (!APICallError.isInstance(e) || !e.responseHeaders) return undefined
  const headers = Object.fromEntries(Object.entries(e.responseHeaders).map(([k, v]) => [k.toLowerCase(), v]))
  const ms = Number.parseFloat(headers['retry-after-ms'] ?? '')
  if (Number.isFinite(ms) && ms >= 0) return ms
  const raw = headers['retry-after']
  if (raw === undefined) return undefined
  const seconds = Number.parseFloat(raw)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(raw)
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined
}

/** A short one-line description of a provider error, for messages shown to the user. */
export function describeError(e: unknown): string {
  const malformed = malformedResponse(e)
  if (malformed) return malformed
  const status = statusOf(e)
  // One line: library messages may carry the raw text and a nested error on lines of their own.
  let message = (e instanceof Error ? e.message : typeof e === 'string' ? e : JSON.stringify(e)).split('\n')[0].trim()
  if (APICallError.isInstance(e) && e.responseBody) {
    const said = bodyMessage(e.responseBody)
    if (!message.toLowerCase().includes(said.toLowerCase())) message = `${message}: ${said}`
  }
  return status !== undefined && !message.includes(String(status)) ? `${message} (HTTP ${status})` : message
}

/**
 * What an error body says, for a person: the message of a JSON error (`{"error":{"message":…}}`, `{"message":…}`,
 * `{"detail":…}`) rather than the JSON; an HTML error page (a proxy's) as just that; other text clipped.
 */
function bodyMessage(body: string): string {
  const clip = (t: string) => (t.length > 300 ? `${t.slice(0, 300)}…` : t)
  const text = body.trim()
  if (/^<(!doctype|html|head|body)\b/i.test(text)) return 'the server answered with an HTML error page'
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    // Not JSON: the text as it came (a plain-text error).
    return clip(text)
  }
  const pick = (o: unknown): string | undefined => {
    if (typeof o === 'string') return o
    if (!o || typeof o !== 'object') return undefined
    const r = o as Record<string, unknown>
    return pick(r.error) ?? [r.message, r.detail, r.error_description].find((v): v is string => typeof v === 'string')
  }
  return clip(pick(parsed) ?? text)
}

/**
 * A server that answered but not in the protocol (garbage stream lines, a tool call without a name): said in words,
 * not as the parser's message (which names library classes and quotes JSON.parse).
 */
function malformedResponse(e: unknown): string | undefined {
  if (JSONParseError.isInstance(e)) {
    const text = e.text.length > 60 ? `${e.text.slice(0, 60)}…` : e.text
    return `the server sent a malformed stream (a line that is not JSON: ${JSON.stringify(text)}); check that its baseURL points at an OpenAI-compatible API, or try again`
  }
  if (InvalidResponseDataError.isInstance(e) || TypeValidationError.isInstance(e)) {
    const message = e.message.split('\n')[0].trim()
    if (/function\.name|tool.?name/i.test(message)) return 'the server sent a tool call without a name (a malformed response); try again or pick another model'
    return `the server sent a malformed response (${message.replace(/^Type validation failed: /, '').slice(0, 160)}); try again or pick another model`
  }
  return undefined
}
