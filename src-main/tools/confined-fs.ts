import crypto from 'node:crypto'
import fs from 'node:fs'
import fsp, { type FileHandle } from 'node:fs/promises'
import path from 'node:path'
import { errnoCode } from '../files'
import { ToolError } from './tool'

/**
 * File access that cannot be redirected between the permission check and the use.
 *
 * A tool checks a real path (`resolveWorkspacePath`) and later opens it; in between, bash (or anything else) may swap
 * a folder on that path for a symbolic link to somewhere else. So every open is proven afterwards: the opened file
 * must still be the one at the checked real path. On Linux the kernel says where an open descriptor points
 * (`/proc/self/fd/N`), and a folder opened once can be used through that link like `openat`/`renameat`: a write then
 * lands in exactly the folder that was checked, whatever happens to the path meanwhile. Elsewhere the check compares
 * inodes before and after, which leaves a narrow window (documented in docs/decisions.md).
 */

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL } = fs.constants
// Not defined on Windows, where the check below still applies.
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0
const O_DIRECTORY = fs.constants.O_DIRECTORY ?? 0

const PROC_FD = process.platform === 'linux' && fs.existsSync('/proc/self/fd')

export function changedDuringCall(shown: string): ToolError {
  return new ToolError(`${shown} changed during the call (a folder or file on its path was replaced, e.g. by a symbolic link); nothing was done. Check the path and try again.`)
}

function fdLink(fd: number): string {
  return `/proc/self/fd/${fd}`
}

/** Proves that `handle` is the file or folder at the real path `abs` right now; throws `changedDuringCall` if not. */
async function assertOpenedAt(handle: FileHandle, abs: string, shown: string): Promise<void> {
  if (PROC_FD) {
    if ((await fsp.readlink(fdLink(handle.fd))) !== abs) throw changedDuringCall(shown)
    return
  }
  const [opened, real] = await Promise.all([handle.stat(), fsp.realpath(abs)])
  const now = await fsp.stat(abs)
  if (real !== abs || opened.ino !== now.ino || opened.dev !== now.dev) throw changedDuringCall(shown)
}

/** Opens `openPath` (the real path itself, or a name under a folder descriptor) and proves it is at `abs`. */
async function openAt(openPath: string, abs: string, flags: number, shown: string): Promise<FileHandle> {
  let handle: FileHandle
  try {
    handle = await fsp.open(openPath, flags)
  } catch (e) {
    // The last component of a real path is never a link: if it is one now (ELOOP; ENOTDIR when a folder was
    // expected), it was swapped in.
    const code = errnoCode(e)
    if (code === 'ELOOP' || (code === 'ENOTDIR' && flags & O_DIRECTORY)) throw changedDuringCall(shown)
    throw e
  }
  try {
    await assertOpenedAt(handle, abs, shown)
    return handle
  } catch (e) {
    await handle.close()
    throw e
  }
}

/** Opens the checked real path `abs` for reading; the handle is proven to be that file. */
export function openConfinedForRead(abs: string, shown: string): Promise<FileHandle> {
  return openAt(abs, abs, O_RDONLY | O_NOFOLLOW, shown)
}

/** Reads the whole checked file (see openConfinedForRead). */
export async function readConfined(abs: string, shown: string): Promise<Buffer> {
  const handle = await openConfinedForRead(abs, shown)
  try {
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

export interface ConfinedWrite {
  created: boolean
  /** hard links the replaced file had; > 1 means the other links keep the old content */
  links: number
}

/** The deepest existing folder of `dir` (a loose real path) and the names below it still to create. */
async function splitExisting(dir: string): Promise<{ existing: string; missing: string[] }> {
  const missing: string[] = []
  let existing = dir
  for (;;) {
    try {
      await fsp.lstat(existing)
      return { existing, missing }
    } catch (e) {
      const code = errnoCode(e)
      if (code !== 'ENOENT') throw e
      const parent = path.dirname(existing)
      if (parent === existing) throw e
      missing.unshift(path.basename(existing))
      existing = parent
    }
  }
}

function tempName(name: string): string {
  return `.${name}.agentry-${crypto.randomBytes(6).toString('hex')}.tmp`
}

/**
 * Writes `content` to the checked real path `abs`, creating missing parent folders: into a temporary file in the
 * checked folder, then renamed over the target. The rename replaces the path's directory entry and never writes
 * through it, so a hard link to a file elsewhere keeps its old content, and a symbolic link swapped in at the last
 * moment is replaced rather than followed. A folder swapped anywhere on the path makes the call fail.
 */
export async function writeConfined(abs: string, content: string, shown: string): Promise<ConfinedWrite> {
  return PROC_FD ? writeThroughFolderFd(abs, content, shown) : writeConfinedByPath(abs, content, shown)
}

async function writeThroughFolderFd(abs: string, content: string, shown: string): Promise<ConfinedWrite> {
  const { existing, missing } = await splitExisting(path.dirname(abs))
  let dir = await openAt(existing, existing, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, shown)
  try {
    let dirPath = existing
    for (const name of missing) {
      // Created and opened through the folder's descriptor: the path above it no longer matters.
      await fsp.mkdir(path.join(fdLink(dir.fd), name)).catch((e: unknown) => {
        if (errnoCode(e) !== 'EEXIST') throw e
      })
      dirPath = path.join(dirPath, name)
      const child = await openAt(path.join(fdLink(dir.fd), name), dirPath, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, shown)
      await dir.close()
      dir = child
    }
    return await replaceIn(fdLink(dir.fd), path.basename(abs), content, shown)
  } finally {
    await dir.close()
  }
}

/** The temp-file-and-rename step inside `dir` (a folder descriptor link, or a checked real folder path). */
async function replaceIn(dir: string, name: string, content: string, shown: string, verify?: (tmp: FileHandle, tmpPath: string) => Promise<void>): Promise<ConfinedWrite> {
  const finalPath = path.join(dir, name)
  const old = await fsp.lstat(finalPath).catch((e: unknown) => {
    if (errnoCode(e) === 'ENOENT') return null
    throw e
  })
  if (old?.isDirectory()) throw new ToolError(`${shown} is a directory; give a file path to write.`)
  const tmpPath = path.join(dir, tempName(name))
  const tmp = await fsp.open(tmpPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666)
  try {
    try {
      await verify?.(tmp, tmpPath)
      // Keep an existing file's permission bits (an executable script stays executable).
      if (old?.isFile()) await tmp.chmod(old.mode & 0o7777)
      await tmp.writeFile(content)
    } finally {
      await tmp.close()
    }
    await fsp.rename(tmpPath, finalPath)
  } catch (e) {
    await fsp.rm(tmpPath, { force: true })
    throw e
  }
  return { created: old === null, links: old?.isFile() ? old.nlink : 0 }
}

/** Without descriptor paths (not Linux): create and check each step by path, comparing inodes after every open. Exported for its tests. */
export async function writeConfinedByPath(abs: string, content: string, shown: string): Promise<ConfinedWrite> {
  const dir = path.dirname(abs)
  await fsp.mkdir(dir, { recursive: true })
  const assertDir = async () => {
    if ((await fsp.realpath(dir)) !== dir) throw changedDuringCall(shown)
  }
  await assertDir()
  const result = await replaceIn(dir, path.basename(abs), content, shown, async (tmp, tmpPath) => {
    const [opened, now] = await Promise.all([tmp.stat(), fsp.lstat(tmpPath)])
    await assertDir()
    if (opened.ino !== now.ino || opened.dev !== now.dev) throw changedDuringCall(shown)
  })
  await assertDir()
  return result
}
