import os from 'node:os'
import path from 'node:path'

/**
 * Where Agentry keeps its database, config and logs.
 * `AGENTRY_HOME` wins so tests, CI and power users can isolate a run; otherwise the
 * platform's usual per-user data location.
 */
export function resolveDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  // Build paths with the target platform's rules so a Windows answer has Windows separators
  // even when computed (e.g. in tests) on Linux.
  const p = platform === 'win32' ? path.win32 : path.posix
  const explicit = env.AGENTRY_HOME?.trim()
  if (explicit) return p.resolve(explicit)

  const home = env.HOME || env.USERPROFILE || os.homedir()
  if (platform === 'darwin') return p.join(home, 'Library', 'Application Support', 'agentry')
  if (platform === 'win32') {
    const appData = env.APPDATA || p.join(home, 'AppData', 'Roaming')
    return p.join(appData, 'agentry')
  }
  // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME
  if (xdg && p.isAbsolute(xdg)) return p.join(xdg, 'agentry')
  return p.join(home, '.local', 'share', 'agentry')
}
