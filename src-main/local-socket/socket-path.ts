import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Unix socket paths must fit `sun_path` (104 bytes on macOS, 108 on Linux, terminator included). */
const MAX_SOCKET_PATH = 100

/**
 * Where the host of a data dir listens for local clients (the CLI): `{dataDir}/run/host.sock` in a folder only its
 * owner can enter; on Windows a named pipe named after the data dir (the default pipe ACL lets only its creator, the
 * system and administrators write to it). A data dir whose path is too long for a socket gets a private folder under
 * the system temp dir instead, checked to be ours.
 */
export function localSocketPath(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  const hash = crypto.createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16)
  if (platform === 'win32') return `\\\\.\\pipe\\agentry-${hash}`
  const inDataDir = path.join(dataDir, 'run', 'host.sock')
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH) return inDataDir
  return path.join(os.tmpdir(), `agentry-${process.getuid?.() ?? 'user'}-${hash}`, 'host.sock')
}

/**
 * Creates the socket's folder with mode 0700, or checks an existing one: a real directory (not a symlink), owned by
 * us, then tightened to 0700. Anything else is refused — another user could otherwise plant a socket for us to trust.
 */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  const stat = fs.lstatSync(dir)
  const uid = process.getuid?.()
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
    throw new Error(`${dir} must be a folder owned by you (it holds the socket other agentry commands attach to). Remove it and try again.`)
  }
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700)
}
