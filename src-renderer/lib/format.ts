/** Human-readable numbers for cards and badges. */

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–'
  if (ms < 1000) return `${Math.round(ms)} ms`
  const s = ms / 1000
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`
  const m = Math.floor(s / 60)
  const rest = Math.round(s % 60)
  if (m < 60) return `${m}m ${rest}s`
  return `${Math.floor(m / 60)}h ${m % 60}m`
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n))
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`
  return `${(n / 1_000_000).toFixed(1)}M`
}

export function shortPath(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean)
  return parts.length <= 2 ? p : `…/${parts.slice(-2).join('/')}`
}

// Intl formatters are costly to build; a sidebar draws many times, so each one is made once.
const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' })
const WEEKDAY = new Intl.DateTimeFormat(undefined, { weekday: 'short' })
const DAY = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' })
const DAY_YEAR = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' })
const FULL = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const DAY_MS = 86_400_000

/** A session row's time: the clock today, weekday this week, the date before that (year only when not this year). */
export function formatWhen(at: number, now: number): string {
  const d = new Date(at)
  const today = new Date(now)
  const startOfToday = new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime()
  if (at >= startOfToday) return TIME.format(d)
  if (at >= startOfToday - 6 * DAY_MS) return `${WEEKDAY.format(d)} ${TIME.format(d)}`
  return (d.getFullYear() === today.getFullYear() ? DAY : DAY_YEAR).format(d)
}

export function formatDateTime(at: number): string {
  return FULL.format(new Date(at))
}

/** Sizes on disk: `0 B`, `812 B`, `4.2 KB`, `37 MB`, `1.3 GB` (powers of 1024, as file managers show them). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '–'
  if (n < 1024) return `${Math.round(n)} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`
}
