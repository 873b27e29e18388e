/**
 * The subagent combination matrix (issue 12), as data: every case is one row generated from these lists, and each
 * row's script, driving and expectations come from its fields. To add a dimension value, add it here and teach
 * `matrix-script.ts` / `matrix-expect.ts` its replies and its expected outcome.
 */

/** `fork`: a `task` call with subagent_type "fork" — the caller's own agent, nested, in the background (power rows only). */
export type Kind = 'opaque' | 'inspectable' | 'fork'
export type Mode = 'blocking' | 'background'
export type Outcome = 'success' | 'tool-error' | 'model-error' | 'stop' | 'timeout' | 'approval-wait' | 'restart' | 'resume'
export type Parent = 'root' | Kind

export const KINDS: Kind[] = ['opaque', 'inspectable']
export const MODES: Mode[] = ['blocking', 'background']
export const PARENTS: Parent[] = ['root', 'opaque', 'inspectable']
export const OUTCOMES: Outcome[] = ['success', 'tool-error', 'model-error', 'stop', 'timeout', 'approval-wait', 'restart', 'resume']

/** One case: a chain of children below a root session, the run mode of the last call, and how the last child ends. */
export interface MatrixCase {
  /** unique token, e.g. `c017`; every prompt and reply of the case carries it */
  id: string
  name: string
  /** kinds of the levels below the root, top down; the last one is "the child", the one before it "the parent" */
  chain: Kind[]
  /** how the last level is called (the levels above it are blocking calls) */
  mode: Mode
  outcome: Outcome
  /** more input of the last `task` call (the power features' rows: model, max_turns, label, cleanup, …) */
  extra?: Record<string, unknown>
  /** the last child's final text when it is not the usual `doneText` (a row whose child is made to answer early) */
  leafText?: string
  /** what follows the stats line in the result the parent reads (a regular expression's source; a kept worktree's note) */
  resultSuffix?: string
  /** the last child stops before it finishes by itself (its turn cap): why, as the incomplete result says */
  incomplete?: string
}

/**
 * The children's timeout per group (seconds): short where it must fire or be outwaited, with room for the
 * children's own work (model steps, a file write) on a loaded machine; elsewhere the default.
 */
// approval-wait: the person answers after longer than the whole timeout, which must not count; the timeout leaves the
// child's own work (three levels of model steps and a write, 29 cases at once) room on a loaded 2-core machine.
export const TIMEOUT_SECONDS: Partial<Record<Outcome, number>> = { timeout: 2, 'approval-wait': 4 }

/** The agent that plays each kind (custom project agents; `build` is the root). */
export const AGENT_OF: Record<Exclude<Kind, 'fork'>, string> = { opaque: 'opq', inspectable: 'insp' }

export function matrixCases(outcomes: Outcome[] = OUTCOMES): MatrixCase[] {
  const rows: Omit<MatrixCase, 'id' | 'name'>[] = []
  for (const outcome of outcomes) {
    // parent {root, opaque child, inspectable child} × child {opaque, inspectable} × mode
    for (const parent of PARENTS) {
      for (const child of KINDS) {
        for (const mode of MODES) rows.push({ chain: parent === 'root' ? [child] : [parent, child], mode, outcome })
      }
    }
    // depth-3 chains mixing opaque and inspectable levels
    for (const a of KINDS) for (const b of KINDS) for (const c of KINDS) for (const mode of MODES) rows.push({ chain: [a, b, c], mode, outcome })
  }
  return rows.map((r, i) => ({
    ...r,
    id: `c${String(i).padStart(3, '0')}`,
    name: `${r.outcome}: root → ${r.chain.join(' → ')} (${r.mode})`,
  }))
}

/** Agent name at level k (0 = root). */
export function agentAt(c: MatrixCase, k: number): string {
  if (k === 0) return 'build'
  const kind = c.chain[k - 1]
  // A fork runs as its caller's agent.
  return kind === 'fork' ? agentAt(c, k - 1) : AGENT_OF[kind]
}

/** Depth of the last child. */
export const depthOf = (c: MatrixCase): number => c.chain.length
