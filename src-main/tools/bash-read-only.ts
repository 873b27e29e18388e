import fs from 'node:fs'
import { readOnlyLine } from '../permissions'
import { resolveWorkspacePath } from './workspace-path'

/**
 * Is this bash line read-only (judged by the parser, see permissions/shell/read-only.ts), reading only inside the
 * workspace? Then the files it names, workspace-relative, for the rules to judge as reads (`cat .env` is no read-only
 * pass). Any word that resolves outside — `..`, an absolute path, a symlink out — and the line is judged as before:
 * reading `~/.ssh/id_rsa` or `/etc/shadow` never runs unasked.
 */
export function bashReadOnly(command: string, workdir: string): { reads: string[] } | undefined {
  const verdict = readOnlyLine(command)
  if (!verdict.readOnly) return undefined
  const reads: string[] = []
  for (const word of verdict.reads) {
    let resolved: ReturnType<typeof resolveWorkspacePath>
    try {
      resolved = resolveWorkspacePath(workdir, word)
    } catch {
      return undefined // a symlink loop, an unreadable folder: not something to wave through
    }
    if (resolved.outside) return undefined
    reads.push(resolved.rel)
    // A folder may be read whole (`grep -r k .ssh`): a rule denying what is inside it (`**/.ssh/**`) must count.
    if (isFolder(resolved.abs)) reads.push(resolved.rel === '.' ? '*' : `${resolved.rel}/*`)
  }
  return { reads: [...new Set(reads)] }
}

function isFolder(abs: string): boolean {
  try {
    return fs.statSync(abs).isDirectory()
  } catch {
    return false
  }
}
