import type { AlwaysSuggestion } from '../../src-shared'
import type { PermissionAsk } from '../tools'
import { decideRequests, evaluateRuleset, suggestAlways, type Decision, type LayeredRules, type PermissionRequest, type Ruleset } from '../permissions'
import type { Approvals } from '../approvals'
import type { PartHandle } from '../loop'
import type { RunLevel } from './level'
import { findProtectedWrite, guardProtectedWrite, type GateDecision } from './protected-writes'
import { scratchpadRules } from './scratchpad'
import { skillFolderRules } from './skill-tool'

export interface RuleSources {
  /**
   * "Always allow" answers that reach a run at `path` (session ids from its conversation's root down to its own): the
   * workspace's, every session's on the path (a grant flows down to the sessions below it, never up), and the "for
   * this run" grants of the runs on the path. (A run's own `--allow` grants come with its level.)
   */
  runtimeRules(path: readonly string[], workdir: string): Ruleset
  /** why writing this real path always needs the person (protected configuration), or null */
  protectedWrite(absTarget: string, workdir: string): string | null
}

/** The layered rules of every level of a run: its static layers were read when the prompt started (level.settings). */
export function chainFor(level: RunLevel, rules: Pick<RuleSources, 'runtimeRules'>): LayeredRules[] {
  const { static: staticRules, workspace } = level.settings.rules
  const stored = rules.runtimeRules(level.path, level.workdir)
  // The skill folders' rules come last: their write denies win over every allow of this layer.
  const scratch = [...scratchpadRules(level.scratchpad), ...skillFolderRules(level)]
  const runtime = level.grants.length || scratch.length ? [...stored, ...level.grants, ...scratch] : stored
  return level.chain.map((agent, i) => ({ agent, static: staticRules, workspace, runtime, agentName: level.agentPath[i] }))
}

/** One request under the run's rules. */
export function decideFor(level: RunLevel, rules: Pick<RuleSources, 'runtimeRules'>, req: PermissionRequest): Decision {
  return decideRequests(chainFor(level, rules), [req])
}

/**
 * The requests one tool call makes: each ask judged under its own tool's rules (default: the calling tool). A bash
 * line's read-only mark counts only with `readOnly` (the person's `sandbox.readOnlyAutoAllow`, on by default).
 */
export function requestsFor(toolName: string, asks: PermissionAsk | PermissionAsk[], o: { readOnly?: boolean } = {}): PermissionRequest[] {
  return (Array.isArray(asks) ? asks : [asks]).map((a) => ({
    tool: a.tool ?? toolName,
    kind: a.kind,
    subjects: a.subjects,
    outsideWorkspace: a.outsideWorkspace,
    access: a.access,
    ...(o.readOnly && a.readOnly ? { readOnly: a.readOnly } : {}),
  }))
}

/** Do read-only bash lines run without asking in this run? The person's own config.yaml only (a workspace cannot). */
export function readOnlyAutoAllow(level: RunLevel): boolean {
  return level.settings.config.config.sandbox.readOnlyAutoAllow !== false
}

/** The most restrictive decision over several requests (deny > ask > allow); the first one on a tie. Protected writes ask. */
export function decideAll(level: RunLevel, rules: RuleSources, reqs: PermissionRequest[]): GateDecision {
  const worst = decideRequests(chainFor(level, rules), reqs)
  if (worst.action === 'deny') return worst
  return guardProtectedWrite(worst, findProtectedWrite(reqs, level.workdir, rules.protectedWrite))
}

/**
 * The rules' answer for a tool's own checks (each file of a grep, each redirect hop of a web_fetch), asking no one.
 * With `named`, an allow also needs a rule for exactly that tool whose pattern is not a catch-all, in the person's
 * rules (a trusted workspace's count as theirs) or "Always allow" answers — never an agent file or an untrusted
 * workspace: a blanket grant such as `--yes` never opens it.
 */
export function rulesSay(o: { level: RunLevel; rules: RuleSources; toolName: string; ask: PermissionAsk | PermissionAsk[]; named?: boolean }): Decision['action'] {
  const reqs = requestsFor(o.toolName, o.ask)
  if (reqs.length === 0) return 'allow'
  const action = decideAll(o.level, o.rules, reqs).action
  if (action !== 'allow' || !o.named) return action
  // The run's own grants (`agentry run --allow`) are the person's too, like their "Always allow" answers.
  const layers = [o.level.settings.rules.static, o.rules.runtimeRules(o.level.path, o.level.workdir), o.level.grants]
  return reqs.every((req) => allowedByName(layers, req)) ? 'allow' : 'ask'
}

/**
 * Does a rule for exactly `req.tool` (not a tool glob) whose pattern is not a catch-all allow each subject, in one of
 * `layers`? Rules that only match through `*`/`**` do not count.
 */
export function allowedByName(layers: Ruleset[], req: PermissionRequest): boolean {
  const named = layers.map((rs) => rs.filter((r) => r.tool === req.tool && r.pattern !== '*' && r.pattern !== '**'))
  return req.subjects.every((s) => named.some((rs) => evaluateRuleset(rs, req.tool, s, req.kind, req.outsideWorkspace)?.action === 'allow'))
}

/**
 * Rule sources read once and then reused: a tool checking thousands of files must not re-read the runtime rules
 * per file (the static layers are already the run's snapshot).
 */
export function snapshotRules(level: RunLevel, rules: RuleSources): RuleSources {
  let runtime: Ruleset | undefined
  return {
    runtimeRules: () => (runtime ??= rules.runtimeRules(level.path, level.workdir)),
    protectedWrite: rules.protectedWrite,
  }
}

/**
 * The permission gate a tool awaits: decide; ask the person through the approvals service when the rules say
 * ask; in a headless run ask means deny. The denial text tells the model what happened and what to do instead.
 */
export async function authorizeCall(o: {
  level: RunLevel
  rules: RuleSources
  approvals: Pick<Approvals, 'request'>
  toolName: string
  ask: PermissionAsk | PermissionAsk[]
  display?: { summary: string; diff?: string }
  handle: PartHandle
  /** a hook's "ask" (issue 27): turns the rules' allow into an ask of the person; never lifts a deny */
  mustAsk?: string
}): Promise<{ ok: true } | { ok: false; message: string }> {
  const { level, toolName } = o
  const reqs = requestsFor(toolName, o.ask, { readOnly: readOnlyAutoAllow(level) })
  // A tool that asks no permission (todo) reaches the gate only for a hook's ask: the rules have nothing to say.
  const ruled: GateDecision = reqs.length ? decideAll(level, o.rules, reqs) : { action: 'allow', reason: 'no permission needed' }
  const decision: GateDecision = ruled.action === 'allow' && o.mustAsk ? { action: 'ask', reason: o.mustAsk } : ruled
  if (decision.action === 'allow') {
    // The transcript says why it ran without asking (the tool card's "read-only" mark).
    if (decision.readOnly) o.handle.patch({ autoAllowed: 'read-only' })
    return { ok: true }
  }
  if (decision.action === 'deny') {
    return { ok: false, message: `Permission denied: ${decision.reason}. This call will not be allowed; do not retry it — choose another approach or explain what you need.` }
  }
  const guarded = decision.protectedWrite
  if (level.headless && guarded) {
    return {
      ok: false,
      message: `Permission denied: ${toolName} would write ${guarded.subject}, and ${guarded.reason}. A headless run never makes such a change, even with --yes or --allow; tell the user what to change so they can do it themselves.`,
    }
  }
  if (level.headless && o.mustAsk && ruled.action === 'allow') {
    return { ok: false, message: `Permission denied: ${o.mustAsk}, and this run is headless, so no one can approve it (grants such as --yes do not answer a hook). Take another approach or tell the user what you need.` }
  }
  if (level.headless && decision.mustAsk) {
    return {
      ok: false,
      message: `Permission denied: ${decision.reason}. This run is headless, so no one can approve it (grants such as --yes do not cover it). Rewrite the command so every command name and shell string is written out literally.`,
    }
  }
  if (level.headless) {
    return {
      ok: false,
      message: `Permission denied: ${toolName} needs approval (${decision.reason}) and this run is headless, where "ask" means deny. The user can re-run with --yes or --allow ${toolName}.`,
    }
  }
  // A protected write can only be allowed once: no rule may let it through unasked later.
  // A hook's ask offers no "always": no rule can answer for the hook, which asks again next time.
  const suggestions = guarded || o.mustAsk ? [] : uniqueSuggestions(reqs.filter((r) => r.tool === toolName).flatMap((r) => suggestAlways(r)))
  o.handle.patch({}, 'approval-requested')
  const answer = await o.approvals.request({
    sessionId: level.sessionId,
    rootSessionId: level.rootSessionId,
    messageId: o.handle.part.messageId,
    toolCallId: o.handle.part.toolCallId ?? '',
    toolName,
    kind: 'tool',
    agentPath: level.agentPath,
    arguments: {
      input: inputObject(o.handle.part.data.input),
      summary: o.display?.summary,
      diff: o.display?.diff,
      reason: decision.reason,
      ...(level.labelPath?.length === level.agentPath.length - 1 ? { labels: level.labelPath } : {}),
      // The dialog says why (and offers no "always"): this changes what agents may do.
      ...(guarded ? { protected: { path: guarded.subject, reason: guarded.reason } } : {}),
    },
    patterns: reqs.flatMap((r) => r.subjects),
    alwaysSuggestions: suggestions,
    workspaceRoot: level.workdir,
    signal: level.signal,
    emit: level.emit,
    recheck: () => !o.mustAsk && reqs.length > 0 && decideAll(level, o.rules, reqs).action === 'allow',
  })
  o.handle.patch({}, 'input-available')
  if (answer.outcome === 'approved') return { ok: true }
  if (answer.outcome === 'cancelled') return { ok: false, message: `Cancelled: ${answer.reason}.` }
  return { ok: false, message: denialMessage(toolName, answer.feedback) }
}

function uniqueSuggestions(list: AlwaysSuggestion[]): AlwaysSuggestion[] {
  const seen = new Set<string>()
  return list.filter((s) => !seen.has(s.pattern) && Boolean(seen.add(s.pattern)))
}

/** What the model reads when the person said no (with their feedback, when they gave some). */
export function denialMessage(toolName: string, feedback?: string): string {
  return feedback
    ? `The user denied this ${toolName} call and said: "${feedback}"`
    : `The user denied this ${toolName} call. Do not retry it; ask the user or take another approach.`
}

/** A call's input as the approval record holds it: an object (anything else, kept under `value`). */
function inputObject(input: unknown): Record<string, unknown> {
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : { value: input }
}
