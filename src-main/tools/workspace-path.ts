import fs from 'node:fs'
import path from 'node:path'
import type { PermissionAsk } from './tool'
import { isMissing } from '../files'

export interface WorkspacePath {
  /** absolute real path (symlinks resolved as far as the path exists) */
  abs: string
  /** `abs` relative to the workdir with `/` separators; `.` for the workdir itself; starts with `../` when outside */
  rel: string
  outside: boolean
}

const MAX_LINK_DEPTH = 40


/**
 * realpath for paths that may not exist yet: resolves the longest existing prefix and
 * appends the rest. A dangling symlink is followed through its target, so a link to a
 * not-yet-created file outside the workspace is still seen as outside.
 */
function realpathLoose(p: string, depth: number): string {
  if (depth > MAX_LINK_DEPTH) throw new Error(`Too many levels of symbolic links resolving ${p}`)
  try {
    return fs.realpathSync.native(p)
  } catch (e) {
    if (!isMissing(e)) throw e
  }
  const parent = path.dirname(p)
  if (parent === p) return p
  const realParent = realpathLoose(parent, depth)
  const candidate = path.join(realParent, path.basename(p))
  let stat: fs.Stats
  try {
    stat = fs.lstatSync(candidate)
  } catch (e) {
    if (isMissing(e)) return candidate
    throw e
  }
  if (!stat.isSymbolicLink()) return candidate
  const target = fs.readlinkSync(candidate)
  return realpathLoose(path.resolve(realParent, target), depth + 1)
}

/**
 * Resolves `p` (relative to `workdir`, or absolute) and tells whether it escapes the
 * workspace via `..`, an absolute path or a symlink.
 */
export function resolveWorkspacePath(workdir: string, p: string): WorkspacePath {
  const root = realpathLoose(path.resolve(workdir), 0)
  const abs = realpathLoose(path.resolve(root, p), 0)
  const relNative = path.relative(root, abs)
  const outside = relNative === '..' || relNative.startsWith('..' + path.sep) || path.isAbsolute(relNative)
  const rel = relNative === '' ? '.' : relNative.split(path.sep).join('/')
  return { abs, rel, outside }
}

const resolvedAtCheck = new WeakMap<object, WorkspacePath>()

/**
 * `resolveWorkspacePath` once per tool call: the first resolution (in `permission`) is remembered for the call's input
 * object, so `display` and `execute` use exactly the real path that was checked, never a fresh resolution through a
 * link swapped in meanwhile (the confined opens then prove that path still holds; see confined-fs).
 */
export function resolveForCall(input: object, workdir: string, p: string): WorkspacePath {
  const hit = resolvedAtCheck.get(input)
  if (hit) return hit
  const resolved = resolveWorkspacePath(workdir, p)
  resolvedAtCheck.set(input, resolved)
  return resolved
}

/** The path a permission rule sees: workspace-relative, or absolute when outside. */
export function pathSubject(r: WorkspacePath): string {
  return r.outside ? r.abs : r.rel
}

/** PermissionAsk for a file tool touching one path (`access: 'write'` for tools that change it). */
export function pathAsk(r: WorkspacePath, access: 'read' | 'write' = 'read'): PermissionAsk {
  return r.outside ? { kind: 'path', subjects: [r.abs], outsideWorkspace: true, access } : { kind: 'path', subjects: [r.rel], access }
}

/**
 * The ask for reading one file found inside a search (grep, glob, list_dir): judged under read_file's rules, so a
 * search never shows what read_file would refuse. `abs` is the file's real path; `shown`, when given, is how a walk
 * shows that same real path (not a link's).
 */
export function fileReadAsk(realWorkdir: string, abs: string, shown?: string): PermissionAsk {
  // A walk already knows how it shows a file it did not reach through a link: that is the subject.
  if (shown !== undefined) {
    const outside = path.isAbsolute(shown)
    return { ...pathAsk({ abs, rel: outside ? abs : shown, outside }), tool: 'read_file' }
  }
  const relNative = path.relative(realWorkdir, abs)
  const outside = relNative === '..' || relNative.startsWith('..' + path.sep) || path.isAbsolute(relNative)
  const subject = outside ? abs : relNative.split(path.sep).join('/')
  return { ...pathAsk({ abs, rel: subject, outside }), tool: 'read_file' }
}

/**
 * How a file found by a walk is shown to the model: workspace-relative when under the
 * (real) workdir, absolute otherwise. Purely lexical: `abs` must already be under a real path.
 */
export function shownPath(realWorkdir: string, abs: string): string {
  const rel = path.relative(realWorkdir, abs)
  if (rel === '') return '.'
  if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) return abs
  return rel.split(path.sep).join('/')
}
