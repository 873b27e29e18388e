import fs from 'node:fs'
import path from 'node:path'
import { isolationArgs } from './detect'
import type { PlaceholderKind } from './placeholders'
import type { SandboxPolicy } from './policy'

export interface BwrapLayout {
  workdir: string
  /** this command's own folder: `tmp/` becomes /tmp (and TMPDIR), `empty/` and `empty-file` back the masks */
  runDir: string
  policy: SandboxPolicy
  /** protected names that do not exist yet, masked by an empty read-only placeholder */
  placeholders: { path: string; kind: PlaceholderKind }[]
}

const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`)

/**
 * bubblewrap arguments, in mount order (later mounts cover earlier ones): the whole file system read-only, fresh
 * /dev and /proc, the command's temp folder as /tmp, the workspace (and the person's extra folders) writable,
 * then the data dir emptied (but for the skill folders in it, read-only) and protected paths read-only again on top. No network unless the policy allows it.
 */
export function bwrapArgs(layout: BwrapLayout, command: string): string[] {
  const { workdir, runDir, policy } = layout
  const args = [...isolationArgs(), ...(policy.network ? [] : ['--unshare-net'])]
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', path.join(runDir, 'tmp'), '/tmp')
  // A hidden folder that contains the workspace (a task's git worktree in the data dir) is emptied, and the workspace
  // alone mounted back inside it: the keys and the database next to it stay out of reach.
  for (const h of policy.hidden) if (inside(workdir, h) && fs.existsSync(h)) args.push('--tmpfs', h)
  args.push('--bind', workdir, workdir)
  for (const w of policy.writable) if (fs.existsSync(w)) args.push('--bind', w, w)
  const shown = (policy.shown ?? []).filter((p) => fs.existsSync(p))
  for (const h of policy.hidden) {
    if (inside(workdir, h) || !fs.existsSync(h)) continue
    const within = shown.filter((p) => inside(p, h))
    // A hidden folder with readable folders inside (skills in the data dir): emptied, those mounted back read-only,
    // then made read-only itself. An empty read-only folder cannot take mount points, so it is a tmpfs first.
    if (within.length) args.push('--tmpfs', h, ...within.flatMap((p) => ['--ro-bind', p, p]), '--remount-ro', h)
    else args.push('--ro-bind', path.join(runDir, 'empty'), h)
  }
  // Nothing inside a hidden folder is mounted again, except what is inside the workspace (a worktree's own protected names).
  const masked = (p: string) => policy.hidden.some((h) => inside(p, h) && !(inside(workdir, h) && inside(p, workdir)))
  for (const p of policy.readOnly) if (!masked(p) && fs.existsSync(p)) args.push('--ro-bind', p, p)
  for (const p of layout.placeholders) args.push('--ro-bind', path.join(runDir, p.kind === 'dir' ? 'empty' : 'empty-file'), p.path)
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', workdir, '--', 'bash', '-c', command)
  return args
}
