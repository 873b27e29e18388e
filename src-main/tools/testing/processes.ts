import fs from 'node:fs'

/** Test support: live (non-zombie) processes whose whole command line is `commandLine`, found through /proc. */
export function processesWith(commandLine: string): number[] {
  const found: number[] = []
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const cmdline = readProc(`/proc/${name}/cmdline`)
    if (cmdline === null || cmdline.replace(/\0$/, '').split('\0').join(' ') !== commandLine) continue
    const stat = readProc(`/proc/${name}/stat`)
    if (stat !== null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') found.push(Number(name))
  }
  return found
}

function readProc(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch (err) {
    // The process ended between listing /proc and reading it: it is not running.
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ESRCH') return null
    throw err
  }
}

export async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}
