import type { PermissionAsk } from '../tools'
import { decide, evaluateRuleset, suggestAlwaysPatterns, type Decision, type LayeredRules, type PermissionRequest, type Ruleset } from '../permissions'
import type { Approvals } from '../approvals'
import type { PartHandle } from '../loop'
import type { RunLevel } from './level'

export interface RuleSources {
  staticRules(workdir: string): Ruleset
  /** "always" rules for this conversation and workspace, plus headless grants */
  runtimeRules(rootSessionId: string, workdir: string): Ruleset
}

export function decideFor(level: RunLevel, rules: RuleSources, req: PermissionRequest): Decision {
  const staticRules = rules.staticRules(level.workdir)
  const runtime = rules.runtimeRules(level.rootSessionId, level.workdir)
  const chain: LayeredRules[] = level.chain.map((agent, i) => ({
    agent,
    static: staticRules,
    runtime,
    agentName: level.agentPath[i],
  }))
  return decide(chain, req)
}

const SEVERITY = { allow: 0, ask: 1, deny: 2 } as const

/** The requests one tool call makes: each ask judged under its own tool's rules (default: the calling tool). */
export function requestsFor(toolName: string, asks: PermissionAsk | PermissionAsk[]): PermissionRequest[] {
  return (Array.isArray(asks) ? asks : [asks]).map((a) => ({
    tool: a.tool ?? toolName,
    kind: a.kind,
    subjects: a.subjects,
    outsideWorkspace: a.outsideWorkspace,
    access: a.access,
  }))
}

/** The most restrictive decision over several requests (deny > ask > allow); the first one on a tie. */
export function decideAll(level: RunLevel, rules: RuleSources, reqs: PermissionRequest[]): Decision {
  let worst: Decision | undefined
  for (const req of reqs) {
    const d = decideFor(level, rules, req)
    if (!worst || SEVERITY[d.action] > SEVERITY[worst.action]) worst = d
    if (worst.action === 'deny') break
  }
  if (!worst) throw new Error('decideAll: no requests; a tool that needs no check returns null from permission()')
  return worst
}

/**
 * The rules' answer for a tool's own checks (each file of a grep, each redirect hop of a web_fetch), asking no one.
 * With `named`, an allow also needs a rule for exactly that tool whose pattern is not a catch-all, in the person's
 * rules or "Always allow" answers (agent files do not count): a blanket grant such as `--yes` never opens it.
 */
export function rulesSay(o: { level: RunLevel; rules: RuleSources; toolName: string; ask: PermissionAsk | PermissionAsk[]; named?: boolean }): Decision['action'] {
  const reqs = requestsFor(o.toolName, o.ask)
  if (reqs.length === 0) return 'allow'
  const action = decideAll(o.level, o.rules, reqs).action
  if (action !== 'allow' || !o.named) return action
  const layers = [o.rules.staticRules(o.level.workdir), o.rules.runtimeRules(o.level.rootSessionId, o.level.workdir)]
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

/** Rule sources read once and then reused: a tool checking thousands of files must not re-read them per file. */
export function snapshotRules(level: RunLevel, rules: RuleSources): RuleSources {
  let staticRules: Ruleset | undefined
  let runtime: Ruleset | undefined
  return {
    staticRules: () => (staticRules ??= rules.staticRules(level.workdir)),
    runtimeRules: () => (runtime ??= rules.runtimeRules(level.rootSessionId, level.workdir)),
  }
}

/**
 * The permission gate a tool awaits: decide; ask the person through the approvals service when the rules say
 * ask; in a headless run ask means deny. The denial text tells the model what happened and what to do instead.
 */
export async function authorizeCall(o: {
  level: RunLevel
  rules: RuleSources
  approvals: Approvals
  toolName: string
  ask: PermissionAsk | PermissionAsk[]
  display?: { summary: string; diff?: string }
  handle: PartHandle
}): Promise<{ ok: true } | { ok: false; message: string }> {
  const { level, toolName } = o
  const reqs = requestsFor(toolName, o.ask)
  const decision = decideAll(level, o.rules, reqs)
  if (decision.action === 'allow') return { ok: true }
  if (decision.action === 'deny') {
    return { ok: false, message: `Permission denied: ${decision.reason}. This call will not be allowed; do not retry it — choose another approach or explain what you need.` }
  }
  if (level.headless) {
    return {
      ok: false,
      message: `Permission denied: ${toolName} needs approval (${decision.reason}) and this run is headless, where "ask" means deny. The user can re-run with --yes or --allow ${toolName}.`,
    }
  }
  o.handle.patch({}, 'approval-requested')
  const answer = await o.approvals.request({
    sessionId: level.sessionId,
    rootSessionId: level.rootSessionId,
    messageId: o.handle.part.messageId,
    toolCallId: o.handle.part.toolCallId ?? '',
    toolName,
    kind: 'tool',
    agentPath: level.agentPath,
    arguments: { input: o.handle.part.data.input, summary: o.display?.summary, diff: o.display?.diff },
    patterns: reqs.flatMap((r) => r.subjects),
    alwaysPatterns: [...new Set(reqs.filter((r) => r.tool === toolName).flatMap((r) => suggestAlwaysPatterns(r)))],
    workspaceRoot: level.workdir,
    signal: level.signal,
    emit: level.emit,
    recheck: () => decideAll(level, o.rules, reqs).action === 'allow',
  })
  o.handle.patch({}, 'input-available')
  if (answer.outcome === 'approved') return { ok: true }
  if (answer.outcome === 'cancelled') return { ok: false, message: `Cancelled: ${answer.reason}.` }
  return { ok: false, message: denialMessage(toolName, answer.feedback) }
}

/** What the model reads when the person said no (with their feedback, when they gave some). */
export function denialMessage(toolName: string, feedback?: string): string {
  return feedback
    ? `The user denied this ${toolName} call and said: "${feedback}"`
    : `The user denied this ${toolName} call. Do not retry it; ask the user or take another approach.`
}
