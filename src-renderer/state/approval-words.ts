import type { ApprovalRecord } from '../../src-shared'
import type { RunNode } from '../../src-shared/run-map'

/**
 * Why a call waits for the person, in plain words. The host's reason is written for the model and the logs
 * (`asks by your permissions.jsonc rule bash: ask at the root session`); the card says what it means for the person.
 * A reason this does not recognise (a hook's, the shell analysis's) is already written for people: shown as it is.
 */
export function plainWhy(reason: string): string {
  const r = reason.replace(/ at (the root session|subagent level \d+)$/, '')
  if (/^no rule matched → ask$/.test(r)) return 'None of your rules covers this yet, so you decide. “Always allow…” adds a rule for next time.'
  const rule = /^asks by (.+?) rule (.+)$/.exec(r)
  if (rule) {
    const [, from, what] = rule
    const whose = from.startsWith('agent ') ? `The ${from}'s own rules ask first` : from.startsWith('your ') || from === 'permissions.jsonc' ? 'Your rules ask first' : `A rule asks first`
    const named = what.replace(/: ask$/, '')
    return from.startsWith('agent ') ? `${whose}: ${named}.` : `${whose}: ${named} (${from === 'permissions.jsonc' ? 'your permissions.jsonc' : from}).`
  }
  return r
}

/** The risks of a call, for the card's header: what its "Always allow" suggestions were flagged for (network, …). */
export function risksOf(a: Pick<ApprovalRecord, 'alwaysSuggestions' | 'toolName'>): string[] {
  const risks = new Set<string>()
  for (const s of a.alwaysSuggestions) if (s.risky && s.reason) risks.add(s.reason)
  if (a.toolName === 'web_fetch') risks.add('uses the network')
  return [...risks]
}

/**
 * Who asks, from the conversation down: each subagent by what it was asked to do (its task's label, recorded with the
 * approval; else the run map's) — "build › Check the docs › Read the tests" — else by its agent, as the record has it.
 */
export function askerPath(a: Pick<ApprovalRecord, 'agentPath' | 'sessionId' | 'arguments'>, nodes: Record<string, RunNode>): string[] {
  const given = a.arguments.labels
  if (given && given.length === a.agentPath.length - 1) return [a.agentPath[0], ...given.map((l, i) => l || a.agentPath[i + 1])]
  const labels: string[] = []
  for (let n: RunNode | undefined = nodes[a.sessionId]; n && n.parentId !== null; n = n.parentId ? nodes[n.parentId] : undefined) labels.unshift(n.label)
  if (labels.length !== a.agentPath.length - 1) return a.agentPath
  return [a.agentPath[0], ...labels.map((l, i) => l || a.agentPath[i + 1])]
}
