import fs from 'node:fs'
import { errnoCode } from '../files'

/** Sends `sig` to every process in the group led by `pgid`. */
export function signalGroup(pgid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pgid, sig)
  } catch (e) {
    // ESRCH: the whole group is already gone, which is what we wanted.
    if (errnoCode(e) !== 'ESRCH') throw e
  }
}

function readProcStat(pid: string): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch (e) {
    // The process exited between listing /proc and reading its stat.
    if (errnoCode(e) === 'ENOENT' || errnoCode(e) === 'ESRCH') return null
    throw e
  }
}

/**
 * Whether any process of the group is still running. Zombies do not count: killed children
 * re-parented to an init that is slow to reap them would otherwise look alive.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
  } catch (e) {
    // EPERM means a member exists that we may not signal; count it as alive.
    return errnoCode(e) === 'EPERM'
  }
  if (process.platform !== 'linux') return true
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const stat = readProcStat(name)
    if (!stat) continue
    // Fields after "(comm) ": state, ppid, pgrp, …; comm may contain spaces, so split after ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(pgrp) === pgid && state !== 'Z') return true
  }
  return false
}
