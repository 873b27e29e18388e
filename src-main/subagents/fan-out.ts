import { describeBudget, formatUsd, type AgentInfo, type Budget } from '../../src-shared'
import { isToolPart, toolNameOf } from '../loop'
import { askThePerson, tightest, type RunLevel, type RuntimeDeps, type RunToolContext } from '../runtime'
import { ToolError } from '../tools'

/** What a call's `budget` asks for, in Agentry's fields. */
interface CallBudget {
  tokens?: number
  cost_usd?: number
}

/**
 * A child's own budget: the tightest of what the call asks, its agent file and `subagents.budget` — and never more than
 * its caller has left (the caller's allowance bounds it anyway; stating it here shows the real limit on its card).
 */
export function childBudget(level: RunLevel, agent: Pick<AgentInfo, 'budget'>, input: { budget?: CallBudget }): Budget {
  return tightest(requested(level, agent, input.budget), level.allowance?.remaining())
}

function requested(level: RunLevel, agent: Pick<AgentInfo, 'budget'> | undefined, call: CallBudget | undefined): Budget {
  const asked: Budget = call ? { ...(call.tokens !== undefined ? { tokens: call.tokens } : {}), ...(call.cost_usd !== undefined ? { costUsd: call.cost_usd } : {}) } : {}
  return tightest(asked, agent?.budget, level.settings.config.config.subagents.budget)
}

/**
 * "Ask before an expensive fan-out": a step that starts more children at once than `budgets.fanOut.askAboveChildren`,
 * or whose children's cost budgets add up past `askAboveCostUsd`, waits for one decision of the person — asked once
 * for the whole step, on the same approval surface as tools. Headless runs follow `--yes`, else the fan-out is refused.
 */
export class FanOutGate {
  /** one decision per step (the assistant message holding its task calls) */
  private readonly decisions = new Map<string, Promise<string | undefined>>()

  constructor(private readonly approvals: RuntimeDeps['approvals']) {}

  /** Resolves when this call may start; throws the refusal (a tool error the model reads) otherwise. */
  async approve(level: RunLevel, ctx: RunToolContext): Promise<void> {
    const messageId = ctx.handle.part.messageId
    let decision = this.decisions.get(messageId)
    if (!decision) {
      decision = this.decide(level, ctx)
      this.decisions.set(messageId, decision)
      // Steps end; their decisions need not outlive many later ones.
      if (this.decisions.size > 256) this.decisions.delete(this.decisions.keys().next().value!)
    }
    const refusal = await decision
    if (refusal) throw new ToolError(refusal)
  }

  private async decide(level: RunLevel, ctx: RunToolContext): Promise<string | undefined> {
    const limits = level.settings.config.config.budgets.fanOut
    const message = level.transcript.history().find((m) => m.id === ctx.handle.part.messageId)
    const calls = (message?.parts ?? []).filter((p) => isToolPart(p) && toolNameOf(p) === 'task')
    const budgets = calls.map((p) => {
      const input = (p.data.input ?? {}) as { subagent_type?: unknown; budget?: CallBudget }
      const agent = level.settings.agents.find((a) => a.name === input.subagent_type)
      return requested(level, agent, input.budget)
    })
    const costs = budgets.map((b) => b.costUsd)
    const total = costs.every((c) => c !== undefined) ? costs.reduce((a: number, c) => a + c!, 0) : undefined
    const many = calls.length > limits.askAboveChildren
    const costly = limits.askAboveCostUsd !== undefined && total !== undefined && total > limits.askAboveCostUsd
    if (!many && !costly) return undefined
    const what = `start ${calls.length} subagents at once${total !== undefined ? ` with budgets adding up to ${formatUsd(total)}` : ''}`
    const rule = many ? `more than ${limits.askAboveChildren} at once (budgets.fanOut.askAboveChildren)` : `budgets past ${formatUsd(limits.askAboveCostUsd!)} (budgets.fanOut.askAboveCostUsd)`
    if (level.headless) {
      if (yesGranted(level)) return undefined
      return `Not started: this step would ${what}, which needs the person's approval (${rule}), and no one can answer in this run (it was started without --yes). Start fewer at a time${many ? ` (at most ${limits.askAboveChildren})` : ''}, or do the work yourself.`
    }
    const answer = await askThePerson(this.approvals, level, {
      kind: 'budget',
      toolName: 'task',
      toolCallId: ctx.toolCallId,
      messageId: ctx.handle.part.messageId,
      arguments: {
        summary: `${level.agent.name} wants to ${what}.`,
        reason: `Asks because it is ${rule}.${budgetsInWords(budgets)}`,
        budget: { children: calls.length, ...(total !== undefined ? { childrenCostUsd: total } : {}) },
      },
    })
    if (answer.outcome === 'approved') return undefined
    const said = answer.outcome === 'denied' && answer.feedback ? ` They said: ${answer.feedback}` : ''
    return `Not started: the person did not approve this step's fan-out (${what}).${said} Start fewer at a time, or do the work yourself.`
  }
}

/** `agentry run --yes`: every ask is granted, this one too. */
function yesGranted(level: RunLevel): boolean {
  return level.grants.some((r) => r.action === 'allow' && (r.tool === '*' || r.tool === 'task') && r.pattern === '*')
}

/** ` Their budgets: 12 × $0.50.` (or each one when they differ); nothing when none has one. */
function budgetsInWords(budgets: Budget[]): string {
  if (!budgets.some((b) => Object.keys(b).length)) return ''
  const words = budgets.map((b) => describeBudget(b))
  const same = words.every((w) => w === words[0])
  return ` Their budgets: ${same ? `${words.length} × ${words[0]}` : words.join('; ')}.`
}
