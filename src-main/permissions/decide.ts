import type { PermissionAction, PermissionRule } from '../../src-shared'
import { isAbsolutePath, type SubjectKind } from './matcher'
import { malformedReason, staticLabel, staticRule } from './layering'
import { evaluateRuleset, type Ruleset, type SourcedRule } from './ruleset'
import { analyzeShell, commandSubjects } from './shell'

export interface PermissionRequest {
  tool: string
  kind: SubjectKind
  /**
   * file tools: workspace-relative paths (absolute when outside); glob/grep: the pattern or path;
   * web_fetch: URL host; task: subagent name; bash: the WHOLE command line (parsed here, see shell/).
   */
  subjects: string[]
  /** A path subject resolved outside the workdir. Absolute path subjects count as outside anyway. */
  outsideWorkspace?: boolean
  /** What the call does to a path subject (writes to protected configuration always ask). */
  access?: 'read' | 'write'
  /**
   * A bash line the parser judged read-only (shell/read-only.ts), with the workspace paths it may read (the bash tool
   * sets it only when none is outside the workspace). It is allowed where the rules would only ask by default.
   */
  readOnly?: { reads: string[] }
}

/** The rules in force for one session level. */
export interface LayeredRules {
  /** The agent's declared rules (a deny here is a veto). */
  agent: Ruleset
  /** `{dataDir}/permissions.jsonc`, then `{workdir}/.agents/permissions.jsonc` when the person trusts the workspace. */
  static: Ruleset
  /** An untrusted workspace's `.agents/permissions.jsonc`: it may tighten the static layer, never loosen it. */
  workspace?: Ruleset
  /** "Always allow" answers in scope; they never lift a deny of the layers above. */
  runtime: Ruleset
  /** Only for the human-readable reason (`denied by agent "explore" …`). */
  agentName?: string
}

export type PermissionLayer = 'agent' | 'static' | 'runtime'

export interface Decision {
  action: PermissionAction
  /** Which level/layer/rule decided, e.g. `denied by agent "explore" rule bash: deny`. */
  reason: string
  /** The deciding subject (a bash sub-command, a path, …). */
  subject?: string
  /** The deciding rule and where it came from; absent when no rule matched. */
  rule?: PermissionRule
  layer?: PermissionLayer
  /** Index into the chain (0 = root session). */
  level?: number
  /**
   * The bash line cannot be judged statically (a command computed at run time, `eval "$x"`, `git -c core.pager=…`);
   * it asks whatever the rules say, and no grant (`--yes`, "always allow") lifts that. `reason` says why.
   */
  mustAsk?: true
  /** Allowed without asking because the line is read-only (where the rules would only have asked by default). */
  readOnly?: true
}

const SEVERITY: Record<PermissionAction, number> = { allow: 0, ask: 1, deny: 2 }
const VERB: Record<PermissionAction, string> = { allow: 'allowed', ask: 'asks', deny: 'denied' }

/**
 * Decide a tool call for the session at the end of `chain` (chain[0] = root session, then each
 * descendant). Per subject and level: agent → static → runtime, last match wins, except that an
 * agent deny is a veto and a static deny cannot be lifted by runtime rules; nothing matched → ask
 * (→ deny for a path outside the workspace). The result is the most restrictive over every
 * subject and every level (deny > ask > allow), so a child can never exceed its ancestors.
 */
export function decide(chain: LayeredRules[], req: PermissionRequest): Decision {
  if (chain.length === 0) throw new Error('decide: the chain is empty; pass at least the root session\'s LayeredRules')
  const { subjects, mustAsk } = expandSubjects(req)
  const readOnly = !mustAsk && req.kind === 'command' && req.readOnly !== undefined && readsAllowed(chain, req.readOnly.reads)
  let worst: Decision | undefined
  let usedReadOnly = false
  for (const subject of subjects) {
    for (let level = 0; level < chain.length; level++) {
      let d = decideAtLevel(chain[level], req, subject, level, chain.length)
      if (readOnly && askByDefault(d) && !workspaceAsks(chain[level], req, subject)) {
        d = { action: 'allow', reason: READ_ONLY_REASON, subject, level, readOnly: true }
        usedReadOnly = true
      }
      if (!worst || SEVERITY[d.action] > SEVERITY[worst.action]) worst = d
      if (worst.action === 'deny') return worst
    }
  }
  // expandSubjects never returns an empty list, so `worst` is set.
  const decided = worst as Decision
  if (decided.action === 'allow' && usedReadOnly) return { ...decided, reason: READ_ONLY_REASON, readOnly: true }
  if (!mustAsk) return decided
  return { action: 'ask', reason: `asks: ${mustAsk} — a line that cannot be checked before it runs always needs a person`, subject: req.subjects[0], mustAsk: true }
}

export const READ_ONLY_REASON = 'allowed without asking: a read-only command'

/**
 * An ask a read-only line may pass: no rule matched, or a catch-all (`"bash": "ask"`, `"*": "ask"`) of the agent or the
 * person's files. A rule naming a pattern (`"git log *": "ask"`), an "always" layer's ask, and the stand-in for a
 * broken file still ask.
 */
function askByDefault(d: Decision): boolean {
  if (d.action !== 'ask') return false
  if (!d.rule) return true
  return d.rule.pattern === '*' && d.layer !== 'runtime' && !(d.rule as SourcedRule).source?.malformed
}

/** An untrusted workspace's ask for this very command (`"ls *": "ask"`) tightens; only its catch-all is a default. */
function workspaceAsks(layers: LayeredRules, req: PermissionRequest, subject: string): boolean {
  const rule = layers.workspace && evaluateRuleset(layers.workspace, req.tool, subject, req.kind)
  return rule !== undefined && rule.action !== 'allow' && rule.pattern !== '*'
}

/** Every file the line names must be one read_file could read without asking (`cat .env` is not waved through). */
function readsAllowed(chain: LayeredRules[], reads: string[]): boolean {
  return reads.length === 0 || decide(chain, { tool: 'read_file', kind: 'path', subjects: reads, access: 'read' }).action === 'allow'
}

/** The most restrictive decision over several requests of one call (deny > ask > allow); the first one on a tie. */
export function decideRequests(chain: LayeredRules[], reqs: PermissionRequest[]): Decision {
  let worst: Decision | undefined
  for (const req of reqs) {
    const d = decide(chain, req)
    // On a tie a must-ask wins: no grant may lift it, so the gate has to know.
    if (!worst || SEVERITY[d.action] > SEVERITY[worst.action] || (d.mustAsk && !worst.mustAsk && d.action === worst.action)) worst = d
    if (worst.action === 'deny') break
  }
  if (!worst) throw new Error('decideRequests: no requests; a tool that needs no check returns null from permission()')
  return worst
}

/**
 * The subjects rules are matched against. A bash line becomes every command it would run (see shell/analyze.ts),
 * plus the reasons, if any, why it cannot be judged statically.
 */
function expandSubjects(req: PermissionRequest): { subjects: string[]; mustAsk?: string } {
  const given = req.subjects.length > 0 ? req.subjects : ['']
  if (req.kind !== 'command') return { subjects: given }
  const subjects: string[] = []
  const reasons: string[] = []
  for (const line of given) {
    const analysis = analyzeShell(line)
    const found = commandSubjects(analysis)
    // A line with no command (blank, a comment) is still decided, as itself, rather than vanishing.
    subjects.push(...(found.length > 0 ? found : [line.trim()]))
    reasons.push(...analysis.mustAsk)
  }
  return { subjects: [...new Set(subjects)], mustAsk: reasons.length > 0 ? [...new Set(reasons)].join('; ') : undefined }
}

function decideAtLevel(
  layers: LayeredRules,
  req: PermissionRequest,
  subject: string,
  level: number,
  depth: number,
): Decision {
  const outside = req.kind === 'path' && (req.outsideWorkspace === true || isAbsolutePath(subject))
  const where = depth > 1 ? ` at ${level === 0 ? 'the root session' : `subagent level ${level}`}` : ''
  const at = (layer: PermissionLayer, rule: SourcedRule): Decision => ({
    action: rule.action,
    reason: `${malformedReason(rule) ?? `${VERB[rule.action]} by ${layer === 'static' ? staticLabel(rule) : (rule.source?.label ?? layerLabel(layer, layers.agentName))} rule ${formatRule(rule)}`}${where}`,
    subject,
    rule,
    layer,
    level,
  })
  const evalLayer = (rules: Ruleset): SourcedRule | undefined =>
    evaluateRuleset(rules, req.tool, subject, req.kind, outside)

  const agent = evalLayer(layers.agent)
  if (agent?.action === 'deny') return at('agent', agent)
  const stat = staticRule(evalLayer(layers.static), layers.workspace && evalLayer(layers.workspace))
  if (stat?.action === 'deny') return at('static', stat)
  const runtime = evalLayer(layers.runtime)
  if (runtime) return at('runtime', runtime)
  if (stat) return at('static', stat)
  if (agent) return at('agent', agent)
  if (outside) {
    return { action: 'deny', reason: `"${subject}" is outside the workspace and no rule allows that path → deny${where}`, subject, level }
  }
  return { action: 'ask', reason: `no rule matched → ask${where}`, subject, level }
}

function layerLabel(layer: PermissionLayer, agentName: string | undefined): string {
  if (layer === 'agent') return agentName ? `agent "${agentName}"` : 'agent'
  if (layer === 'static') return 'permissions.jsonc'
  return '"always allow"'
}

/** `bash: deny` for a catch-all pattern, `read_file "*.env": deny` otherwise. */
export function formatRule(rule: PermissionRule): string {
  return rule.pattern === '*' ? `${rule.tool}: ${rule.action}` : `${rule.tool} "${rule.pattern}": ${rule.action}`
}
