import fs from 'node:fs'
import path from 'node:path'
import { isMissing } from '../files'

/**
 * A protected name that does not exist yet (`.agents`, `.mcp.json`) would otherwise be creatable inside the
 * sandbox, so the sandbox mounts an empty read-only placeholder there. bubblewrap has to create the mount point
 * in the (writable, real) workspace; these helpers remember which ones Agentry created and remove them — only if
 * still empty — once no running command uses them.
 */
interface Entry {
  users: number
  kind: 'dir' | 'file'
}
const inUse = new Map<string, Entry>()

export type PlaceholderKind = 'dir' | 'file'

/** Files among the protected names; everything else is a folder. */
export function placeholderKind(p: string): PlaceholderKind {
  const base = path.basename(p)
  return base.endsWith('.json') || base === 'config' ? 'file' : 'dir'
}

/** Claims `p` for one command when it does not exist (or is a placeholder another command claimed). */
export function claimPlaceholder(p: string): PlaceholderKind | null {
  const entry = inUse.get(p)
  if (entry) {
    entry.users++
    return entry.kind
  }
  if (exists(p)) return null
  const kind = placeholderKind(p)
  inUse.set(p, { users: 1, kind })
  return kind
}

/** Gives `p` back; the last user removes it if it is still the empty placeholder. */
export function releasePlaceholder(p: string): void {
  const entry = inUse.get(p)
  if (!entry) return
  if (--entry.users > 0) return
  inUse.delete(p)
  try {
    const st = fs.lstatSync(p)
    if (entry.kind === 'dir' && st.isDirectory() && fs.readdirSync(p).length === 0) fs.rmdirSync(p)
    else if (entry.kind === 'file' && st.isFile() && st.size === 0) fs.unlinkSync(p)
  } catch (err) {
    // Already gone (or replaced by something the person made): nothing of ours to remove.
    if (!isMissing(err)) throw err
  }
}

function exists(p: string): boolean {
  try {
    fs.lstatSync(p)
    return true
  } catch (err) {
    if (isMissing(err)) return false
    throw err
  }
}

