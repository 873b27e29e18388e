import type { CompactPermission } from '../../../src-shared'
import { decide, fromCompact, type LayeredRules } from '../../permissions'
import { runTool, type ToolRunResult } from '../run-tool'
import { makeContext, type TestContext } from '../test-context'
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
  const chain: LayeredRules[] = [{ agent: [], static: fromCompact(rules), runtime: [] }]
  let calling = ''
  const judge = (ask: PermissionAsk) =>
    decide(chain, { tool: ask.tool ?? calling, kind: ask.kind, subjects: ask.subjects, outsideWorkspace: ask.outsideWorkspace, access: ask.access })
  const ctx = makeContext({
    ...opts,
    deny: (ask) => {
      const d = judge(ask)
      return d.action === 'allow' ? null : `Permission denied: ${d.reason}`
    },
    checkRules: (given) =>
      (Array.isArray(given) ? given : [given]).map(judge).reduce((w, d) => (SEVERITY[d.action] > SEVERITY[w.action] ? d : w)).action,
  })
  return Object.assign(ctx, {
    run(def: ToolDef, input: unknown) {
      calling = def.name
      return runTool(def, input, ctx)
    },
  })
}
