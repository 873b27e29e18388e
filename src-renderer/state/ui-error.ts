import type { BridgeError, CallResult } from '../../src-shared'
import { z } from 'zod'

/** What to do about a host error, in words for the person looking at the screen. */
export function errorHint(e: BridgeError): string {
  switch (e.code) {
    case 'invalid_request':
      return 'The app sent something the host rejected. Reload the window; if it persists, report it with this message.'
    case 'not_found':
      return 'It may have been deleted or archived. Refresh the list and try again.'
    case 'conflict':
      return 'Something else changed it at the same time. Wait for the current run to finish, then retry.'
    case 'config_error':
      return 'Fix the configuration named in the message (see Settings), then retry.'
    case 'unavailable':
      return 'The host is not reachable right now. It reconnects automatically; retry in a moment.'
    case 'internal':
      return 'The host hit an unexpected error. Retry; if it repeats, check the host log in the data folder.'
  }
}

/** A failure as the UI shows it: what was being done, the host's message, and what to do about it. */
export type UiError = { context: string; message: string; hint: string }

export function toUiError(context: string, e: BridgeError): UiError {
  return { context, message: e.message, hint: errorHint(e) }
}

/** What an action hands a screen: the data, or the error to show in place. */
export type UiResult<T> = { ok: true; data: T } | { ok: false; error: UiError }

export function toUiResult<T>(context: string, r: CallResult<T>): UiResult<T> {
  return r.ok ? r : { ok: false, error: toUiError(context, r.error) }
}

/** A `config_error`'s per-field reasons (`data.fields`), to show under each field; empty when there are none. */
export function fieldErrorsOf(e: BridgeError): Record<string, string> {
  const parsed = FieldData.safeParse(e.data)
  return parsed.success ? parsed.data.fields : {}
}

const FieldData = z.object({ fields: z.record(z.string(), z.string()) })
