import { z } from 'zod'
import { defineTool, ToolError } from './tool'

export const PlanExitParameters = z.object({
  plan: z.string().min(1).describe('The complete plan in Markdown: the steps, the files to change and how to verify the result.'),
})

const description = `Submit your finished plan for the user's approval.
Call it once, when the plan is complete and concrete. If the user approves, your turn ends there and their next message runs with the build agent, which can edit files and run commands and carries out the plan. If they do not, their feedback comes back: revise the plan and call plan_exit again.`

/** What the model reads back: approved (the turn ends), revised on feedback, or — headless — nobody to ask. */
export const PLAN_APPROVED = 'The user approved the plan. Your turn ends here; their next message runs with the build agent, which carries out this plan.'
export const PLAN_HEADLESS =
  'Nobody can review a plan in this run: it is headless (agentry run), with no user to approve it. Do not call plan_exit again. Give the complete plan as your final answer now, and stop.'

export const planExitTool = defineTool({
  name: 'plan_exit',
  description,
  parameters: PlanExitParameters,
  // The plan review is itself the user's decision; a separate approval would ask twice.
  permission: () => null,
  async execute(input, ctx) {
    const verdict = await ctx.planExit(input.plan)
    // An approved plan ends the turn: what follows is the build agent's, in the user's next turn.
    if (verdict.approved) return { output: PLAN_APPROVED, metadata: { approved: true, endsTurn: true } }
    if (verdict.headless) return { output: PLAN_HEADLESS, metadata: { approved: false, headless: true } }
    const feedback = verdict.feedback?.trim()
    throw new ToolError(
      feedback
        ? `The user did not approve the plan. Their feedback: ${feedback}\nRevise the plan and call plan_exit again.`
        : 'The user did not approve the plan and gave no feedback: ask them what to change, or revise the plan and call plan_exit again.',
    )
  },
})
