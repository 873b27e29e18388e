import type { SandboxPolicy } from './policy'

/**
 * A macOS Seatbelt profile for `sandbox-exec -p`: everything allowed except writes outside the workspace, the
 * command's temp folder and the person's extra folders; protected paths stay read-only, the data dir unreadable,
 * and no network unless the policy allows it. Seatbelt applies the last matching rule, so the denies come after
 * the allows they narrow. Paths must be real paths (`/private/var/…`, not `/var/…`).
 */
export function seatbeltProfile(o: { workdir: string; tmp: string; policy: SandboxPolicy }): string {
  const lit = (p: string) => `"${p.replace(/[\\"]/g, (c) => `\\${c}`)}"`
  const writable = [o.workdir, o.tmp, ...o.policy.writable].map((p) => `(subpath ${lit(p)})`)
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    `(allow file-write* ${writable.join(' ')} (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
  ]
  if (o.policy.readOnly.length) lines.push(`(deny file-write* ${o.policy.readOnly.map((p) => `(subpath ${lit(p)})`).join(' ')})`)
  const hidden = o.policy.hidden.filter((h) => !(o.workdir === h || o.workdir.startsWith(`${h}/`)))
  if (hidden.length) lines.push(`(deny file-read* file-write* ${hidden.map((p) => `(subpath ${lit(p)})`).join(' ')})`)
  // Folders inside a hidden one that stay readable (skills in the data dir): read again after the deny, never written.
  const shown = (o.policy.shown ?? []).filter((s) => hidden.some((h) => s === h || s.startsWith(`${h}/`)))
  if (shown.length) lines.push(`(allow file-read* ${shown.map((p) => `(subpath ${lit(p)})`).join(' ')})`)
  if (!o.policy.network) lines.push('(deny network*)')
  return `${lines.join('\n')}\n`
}
