import { createHash } from 'node:crypto'
import type { ListedRule, SessionRecord, StaticRuleRow } from '../../src-shared'
import type { Ruleset } from '../permissions'
import type { RunRecord } from '../runtime'
import { ancestorsOf } from '../sessions'
import type { ApprovalsRepository, SessionsRepository } from '../store'
import type { StaticLayers } from '../trust'

/** What listing and revoking grants reads: the stored rules, the sessions (to name a conversation), the runs in flight. */
export interface GrantSources {
  rules: Pick<ApprovalsRepository, 'listRules' | 'revokeRule'>
  sessions: Pick<SessionsRepository, 'getSession'>
  runs: { list(): RunRecord[] }
}

export interface GrantFilter {
  /** the workspace's rules, and the session and run grants of its conversations */
  workspaceRoot?: string
  /** the session and run grants made in this session or a session below it */
  sessionId?: string
}

const RUN_PREFIX = 'run:'

/**
 * Every "Always allow" grant the filter asks for, each with the conversation it belongs to (root id, title, workspace):
 * stored workspace and session rules, then the `run` grants the running agents hold in memory (they end with the run).
 */
export function listGrants(d: GrantSources, f: GrantFilter): ListedRule[] {
  const all = !f.workspaceRoot && !f.sessionId
  const out: ListedRule[] = []
  for (const r of d.rules.listRules()) {
    if (r.scope === 'workspace') {
      if (all || (f.workspaceRoot && r.scopeKey === f.workspaceRoot)) out.push({ ...r, conversation: null })
      continue
    }
    const chain = sessionChain(d.sessions, r.scopeKey)
    const conversation = conversationOf(chain[0])
    if (all || (f.sessionId && chain.some((s) => s.id === f.sessionId)) || (f.workspaceRoot && conversation?.workspaceRoot === f.workspaceRoot)) {
      out.push({ ...r, conversation })
    }
  }
  for (const run of d.runs.list()) {
    if (run.grants.length === 0) continue
    const root = d.sessions.getSession(run.path[0] ?? run.sessionId)
    const conversation = conversationOf(root)
    if (!(all || (f.sessionId && run.path.includes(f.sessionId)) || (f.workspaceRoot && conversation?.workspaceRoot === f.workspaceRoot))) continue
    for (const g of run.grants) {
      out.push({ id: runGrantId(run, g), scope: 'run', scopeKey: run.sessionId, tool: g.tool, pattern: g.pattern, action: g.action, createdAt: run.startedAt, conversation })
    }
  }
  return out
}

/** Revokes a stored rule, or a grant a running agent holds (its id starts with `run:`); false when there was none. */
export function revokeGrant(d: GrantSources, ruleId: string): boolean {
  if (!ruleId.startsWith(RUN_PREFIX)) return d.rules.revokeRule(ruleId)
  let revoked = false
  for (const run of d.runs.list()) {
    const grants: Ruleset = run.grants
    for (let i = grants.length - 1; i >= 0; i--) {
      if (runGrantId(run, grants[i]) !== ruleId) continue
      grants.splice(i, 1)
      revoked = true
    }
  }
  return revoked
}

/**
 * The rules of the static files as a table: the person's own file, then the workspace's (its rules trusted, or an
 * untrusted workspace's that can only tighten). A file that stands in as "ask for everything" is reported as an error, not listed.
 */
export function staticRuleRows(layers: Pick<StaticLayers, 'static' | 'workspace'>, personalFile: string): StaticRuleRow[] {
  const row = (r: Ruleset[number], tightenOnly: boolean): StaticRuleRow[] => {
    if (!r.source || r.source.malformed) return []
    return [{ tool: r.tool, pattern: r.pattern, action: r.action, file: r.source.file, from: r.source.file === personalFile ? 'yours' : 'workspace', tightenOnly }]
  }
  return [...layers.static.flatMap((r) => row(r, false)), ...layers.workspace.flatMap((r) => row(r, true))]
}

/** A run grant's id: stable while the run lasts, and never the same for two different grants or runs. */
function runGrantId(run: Pick<RunRecord, 'sessionId' | 'startedAt'>, g: Ruleset[number]): string {
  const hash = createHash('sha256').update(JSON.stringify([run.sessionId, run.startedAt, g.tool, g.pattern, g.action])).digest('hex').slice(0, 24)
  return `${RUN_PREFIX}${hash}`
}

/** The session and its stored ancestors, root first ([] when the session is gone). */
function sessionChain(sessions: Pick<SessionsRepository, 'getSession'>, id: string): SessionRecord[] {
  const s = sessions.getSession(id)
  return s ? [...ancestorsOf(sessions, s), s] : []
}

function conversationOf(root: SessionRecord | undefined): ListedRule['conversation'] {
  return root ? { id: root.id, title: root.title, workspaceRoot: root.workspaceRoot } : null
}
