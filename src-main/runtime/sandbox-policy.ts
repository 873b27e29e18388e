import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { SandboxSettings } from '../../src-shared'
import { protectedRoots } from '../permissions'
import type { SandboxPolicy } from '../sandbox'

/**
 * The sandbox policy for one bash call: the person's setting, network only when a `network` rule allows it,
 * protected configuration read-only, the data dir (keys, database, saved output) hidden.
 */
export function sandboxPolicy(o: { settings?: SandboxSettings; network: boolean; workdir: string; dataDir: string }): SandboxPolicy {
  const hidden = [...new Set([o.dataDir, realpathOr(o.dataDir)])]
  return {
    enabled: o.settings?.enabled ?? true,
    network: o.network,
    readOnly: protectedRoots(o.workdir, o.dataDir).map((r) => r.path),
    hidden,
    writable: (o.settings?.writable ?? []).map((p) => (p.startsWith('~/') ? path.join(os.homedir(), p.slice(2)) : p)),
  }
}

function realpathOr(p: string): string {
  try {
    return fs.realpathSync.native(p)
  } catch (err) {
    // A data dir that does not exist yet has no other name.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return p
    throw err
  }
}
