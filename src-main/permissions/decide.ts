import type { PermissionAction, PermissionRule } from '../../src-shared'
import { splitBashCommand } from './bash-split'
import { isAbsolutePath, type SubjectKind } from './matcher'
import { malformedReason, staticLabel, staticRule } from './layering'
import { evaluateRuleset, type Ruleset, type SourcedRule } from './ruleset'

export interface PermissionRequest {
  tool: string
  kind: SubjectKind
  /**
   * file tools: workspace-relative paths (absolute when outside); glob/grep: the pattern or path;
   * web_fetch: URL host; task: subagent name; bash: the WHOLE command line (split here).
   */
  subjects: string[]
  /** A path subject resolved outside the workdir. Absolute path subjects count as outside anyway. */
  outsideWorkspace?: boolean
  /** What the call does to a path subject (writes to protected configuration always ask). */
  access?: 'read' | 'write'
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
  const subjects = expandSubjects(req)
  let worst: Decision | undefined
  for (const subject of subjects) {
    for (let level = 0; level < chain.length; level++) {
      const d = decideAtLevel(chain[level], req, subject, level, chain.length)
      if (!worst || SEVERITY[d.action] > SEVERITY[worst.action]) worst = d
      if (worst.action === 'deny') return worst
    }
  }
  // expandSubjects never returns an empty list, so `worst` is set.
  return worst as Decision
}

function expandSubjects(req: PermissionRequest): string[] {
  const given = req.subjects.length > 0 ? req.subjects : ['']
  if (req.kind !== 'command') return given
  const split = given.flatMap((line) => {
    const parts = splitBashCommand(line)
    // An all-whitespace line still has to be decided (as itself) rather than vanish.
    return parts.length > 0 ? parts : [line.trim()]
  })
  return [...new Set(split)]
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
    reason: `${malformedReason(rule) ?? `${VERB[rule.action]} by ${layer === 'static' ? staticLabel(rule) : layerLabel(layer, layers.agentName)} rule ${formatRule(rule)}`}${where}`,
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
