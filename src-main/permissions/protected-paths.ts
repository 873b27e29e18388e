import fs from 'node:fs'
import path from 'node:path'

/**
 * Files and folders whose contents decide what agents may do: Agentry's own rules, agents and config, the
 * conventions of the hosts whose files we read (Claude Code, opencode, MCP), and the git settings that run
 * commands (`core.fsmonitor`, hooks). A write to any of them always asks the person — even under `--yes` or an
 * "always allow" rule — because an agent that could write them could raise its own permissions.
 */
export const PROTECTED_IN_WORKSPACE = ['.agents', '.claude', '.opencode', '.mcp.json', '.git/config', '.git/hooks'] as const

export interface ProtectedRoot {
  /** absolute path as configured (workspace-relative entries joined to the workdir) */
  path: string
  /** what it is, for the approval text */
  label: string
}

/** The protected locations for a workspace and a data dir, absolute. Symlinked roots are listed under both names. */
export function protectedRoots(workdir: string, dataDir: string): ProtectedRoot[] {
  const roots: ProtectedRoot[] = PROTECTED_IN_WORKSPACE.map((rel) => ({ path: path.join(workdir, rel), label: rel }))
  roots.push({ path: dataDir, label: 'the Agentry data dir' })
  const out: ProtectedRoot[] = []
  for (const root of roots) {
    out.push(root)
    const real = realpathIfExists(root.path)
    if (real && real !== root.path) out.push({ path: real, label: root.label })
  }
  return out
}

/**
 * Why a write to `absTarget` (already resolved through symlinks as far as it exists) needs the person, or null.
 * The text names the location and says what is at stake, for the approval dialog and the headless denial.
 */
export function protectedWriteReason(absTarget: string, workdir: string, dataDir: string): string | null {
  for (const root of protectedRoots(workdir, dataDir)) {
    if (absTarget === root.path || absTarget.startsWith(root.path + path.sep)) {
      return `${root.label} is protected configuration: this changes what agents may do`
    }
  }
  return null
}

function realpathIfExists(p: string): string | null {
  try {
    return fs.realpathSync.native(p)
  } catch (err) {
    // A protected location that does not exist yet has no other name; anything else is a real problem.
    if (err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return null
    throw err
  }
}
