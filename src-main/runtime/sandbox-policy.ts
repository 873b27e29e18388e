import os from 'node:os'
import path from 'node:path'
import type { SandboxSettings } from '../../src-shared'
import { decideRequests, protectedRoots, type LayeredRules } from '../permissions'
import type { SandboxPolicy } from '../sandbox'
import { realpathOrSelf } from '../files'

/**
 * The sandbox policy for one bash call: the person's setting, network only when a `network` rule allows it,
 * protected configuration read-only, the data dir (keys, database, saved output) hidden but for the run's skill
 * folders in it (read-only), the scratchpad writable.
 */
export function sandboxPolicy(o: { settings?: Pick<SandboxSettings, 'enabled' | 'writable'>; network: boolean; workdir: string; dataDir: string; scratchpad?: string; skillDirs?: string[] }): SandboxPolicy {
  const hidden = [...new Set([o.dataDir, realpathOrSelf(o.dataDir)])]
  const own = (o.settings?.writable ?? []).map((p) => (p.startsWith('~/') ? path.join(os.homedir(), p.slice(2)) : p))
  return {
    enabled: o.settings?.enabled ?? true,
    network: o.network,
    readOnly: protectedRoots(o.workdir, o.dataDir).map((r) => r.path),
    hidden,
    // The person's skills in the data dir: a skill's instructions run its scripts (`python scripts/x.py`), so bash
    // reads the folders of the skills this run sees (never writes them); everything else there stays hidden.
    shown: (o.skillDirs ?? []).filter((d) => hidden.some((h) => d.startsWith(`${h}/`))),
    // The conversation's scratchpad is writable for every agent of it, bash included.
    writable: o.scratchpad ? [...own, o.scratchpad] : own,
  }
}

/**
 * Network for bash is opt-in: only rules that name the `network` tool count (`"network": "allow"` in
 * permissions.jsonc, an agent's permission, `--allow network`). A catch-all `*` — including `--yes` — does not
 * open the network, so the one mode that runs everything unasked still keeps commands offline.
 */
export function networkAllowed(chain: LayeredRules[]): boolean {
  const only = (rules: LayeredRules['agent']) => rules.filter((r) => r.tool === 'network')
  const filtered = chain.map((l) => ({ ...l, agent: only(l.agent), static: only(l.static), workspace: l.workspace && only(l.workspace), runtime: only(l.runtime) }))
  return decideRequests(filtered, [{ tool: 'network', kind: 'other', subjects: ['*'] }]).action === 'allow'
}
