import { z } from 'zod'
import { defineTool, ToolError } from './tool'

export const QuestionParameters = z.object({
  question: z.string().min(1).describe('The question for the user, with enough context to answer it on its own.'),
  options: z.array(z.string().min(1)).optional().describe('Suggested answers to pick from; the user may still type their own.'),
})

const description = `Ask the user a question and wait for the answer.
Use it when you cannot proceed sensibly without a decision or information only the user has; do not ask about things you can find out yourself.
When no user is available (headless runs) this returns an error: decide yourself and say what you assumed.`

export const questionTool = defineTool({
  name: 'question',
  description,
  parameters: QuestionParameters,
  // Asking is itself a prompt to the user; a separate approval would ask twice.
  permission: () => null,
  async execute(input, ctx) {
    let answer: string
    try {
      answer = await ctx.askUser(input.question, input.options)
    } catch (e) {
      if (ctx.signal.aborted) throw e
      throw new ToolError(`The question could not be asked: ${e instanceof Error ? e.message : String(e)}`)
    }
    return { output: `The user answered: ${answer}`, metadata: { answer } }
  },
})
