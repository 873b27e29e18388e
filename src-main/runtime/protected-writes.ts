import type { Decision, PermissionRequest } from '../permissions'
import { resolveWorkspacePath } from '../tools'

/** A write the rules may allow but the person must see: it changes what agents may do. */
export interface ProtectedWrite {
  /** the path as the ask named it (workspace-relative, or absolute outside) */
  subject: string
  /** e.g. `.agents is protected configuration: this changes what agents may do` */
  reason: string
}

export type GateDecision = Decision & { protectedWrite?: ProtectedWrite }

const WRITERS = new Set(['write_file', 'edit_file'])

/**
 * The first protected target among the requests' writes, judged by its real path (through symlinks, so
 * `cfg/x` with `cfg -> .agents` counts). Any ask with `access: 'write'` counts, whichever tool makes it (a bash
 * redirect comes as a `write_file` ask); a file tool's ask counts even if it forgot to say so.
 */
export function findProtectedWrite(
  reqs: PermissionRequest[],
  workdir: string,
  reasonFor: (absTarget: string, workdir: string) => string | null,
): ProtectedWrite | undefined {
  for (const req of reqs) {
    if (req.kind !== 'path' || (req.access !== 'write' && !WRITERS.has(req.tool))) continue
    for (const subject of req.subjects) {
      const reason = reasonFor(resolveWorkspacePath(workdir, subject).abs, workdir)
      if (reason) return { subject, reason }
    }
  }
  return undefined
}

/**
 * Protected writes always ask — whatever allowed them (an agent's or the person's allow, "always allow", --yes,
 * --allow) — and a deny stays a deny.
 */
export function guardProtectedWrite(decision: Decision, hit: ProtectedWrite | undefined): GateDecision {
  if (!hit || decision.action === 'deny') return decision
  return { ...decision, action: 'ask', reason: `writing ${hit.subject} needs the user: ${hit.reason}`, subject: hit.subject, protectedWrite: hit }
}
