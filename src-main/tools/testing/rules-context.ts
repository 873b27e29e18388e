import type { CompactPermission } from '../../../src-shared'
import { decide, fromCompact, type LayeredRules } from '../../permissions'
import { allowedByName } from '../../runtime/authorize'
import { runTool, type ToolRunResult } from '../run-tool'
import { makeContext, type TestContext } from './test-context'
import type { PermissionAsk, ToolDef } from '../tool'

const SEVERITY = { allow: 0, ask: 1, deny: 2 } as const

export interface RulesContext extends TestContext {
  /** runTool with the gate and checkRules judging `def`'s asks under `def.name` */
  run(def: ToolDef, input: unknown): Promise<ToolRunResult>
}

/**
 * Test support: a ToolContext judged by the real permission module under `rules` (one static layer), headless — so
 * "ask" is refused at the gate, as in `agentry run` — with `checkRules` answering from the same rules.
 */
export function rulesContext(rules: CompactPermission, opts: { workdir?: string } = {}): RulesContext {
  const ruleset = fromCompact(rules)
  const chain: LayeredRules[] = [{ agent: [], static: ruleset, runtime: [] }]
  let calling = ''
  const request = (ask: PermissionAsk) => ({ tool: ask.tool ?? calling, kind: ask.kind, subjects: ask.subjects, outsideWorkspace: ask.outsideWorkspace, access: ask.access })
  const judge = (ask: PermissionAsk) => decide(chain, request(ask))
  const ctx = makeContext({
    ...opts,
    deny: (ask) => {
      const d = judge(ask)
      return d.action === 'allow' ? null : `Permission denied: ${d.reason}`
    },
    // As the runtime answers (runtime/authorize.ts rulesSay): the worst action, and with `named` only a naming rule allows.
    checkRules: (given, o) => {
      const asks = Array.isArray(given) ? given : [given]
      const action = asks.map(judge).reduce((w, d) => (SEVERITY[d.action] > SEVERITY[w.action] ? d : w)).action
      if (action !== 'allow' || !o?.named) return action
      return asks.every((a) => allowedByName([ruleset], request(a))) ? 'allow' : 'ask'
    },
  })
  return Object.assign(ctx, {
    run(def: ToolDef, input: unknown) {
      calling = def.name
      return runTool(def, input, ctx)
    },
  })
}
