import { spawn } from 'node:child_process'
import { HostError } from '../../src-shared'

/** The program that opens a file or folder with the person's default application. */
function opener(): string {
  if (process.platform === 'darwin') return 'open'
  if (process.platform === 'win32') return 'explorer'
  return 'xdg-open'
}

/** Opens `target` (a file or folder on this machine) the way the person's desktop would; `what` names it in errors. */
export function openPath(target: string, what: 'file' | 'folder'): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(opener(), [target], { detached: true, stdio: 'ignore' })
    child.once('error', (err) => reject(new HostError('unavailable', `Could not open the ${what} (${err.message}); it is at ${target}.`)))
    child.once('spawn', () => {
      child.unref()
      resolve()
    })
  })
}
