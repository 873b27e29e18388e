import { z } from 'zod'
import { defineTool, ToolError } from './tool'

export const PlanExitParameters = z.object({
  plan: z.string().min(1).describe('The complete plan in Markdown: the steps, the files to change and how to verify the result.'),
})

const description = `Present your finished plan to the user and ask to switch to implementation.
Call it once the plan is complete and concrete. If the user approves, the next turn runs with the build agent, which can edit files and run commands.
If the user rejects it, their feedback is returned: revise the plan and call plan_exit again.`

export const planExitTool = defineTool({
  name: 'plan_exit',
  description,
  parameters: PlanExitParameters,
  // The plan review is itself the user's decision; a separate approval would ask twice.
  permission: () => null,
  async execute(input, ctx) {
    const verdict = await ctx.planExit(input.plan)
    if (verdict.approved) return { output: 'Plan approved. The next turn runs with the build agent.', metadata: { approved: true } }
    const feedback = verdict.feedback?.trim()
    throw new ToolError(
      feedback ? `The user rejected the plan. Their feedback: ${feedback}` : 'The user rejected the plan without feedback; ask what to change or revise it.',
    )
  },
})
