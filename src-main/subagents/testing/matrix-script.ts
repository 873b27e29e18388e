import { agentAt, depthOf, type MatrixCase } from './matrix-table'

/**
 * The script replies of matrix cases. All replies live under `"*"` with `repeat: true` and are told apart by the
 * case's tokens in the prompts, so any number of cases share one host and one script file and run at once.
 */

/** In level k's prompt (phase 1 / the resume phase). */
export const tok = (c: MatrixCase, k: number): string => `<${c.id}:L${k}>`
export const resumeTok = (c: MatrixCase, k: number): string => `<${c.id}:R${k}>`
/** Final text of level k (never contains a token, so a synthetic message quoting it cannot match another reply). */
export const doneText = (c: MatrixCase, k: number): string => `${c.id} level ${k} done`
export const resumedText = (c: MatrixCase, k: number): string => `${c.id} level ${k} resumed`
export const wokeText = (c: MatrixCase, k: number): string => `${c.id} level ${k} saw the result`
export const toolErrorText = (c: MatrixCase): string => `${doneText(c, depthOf(c))} after a failed read`
export const modelErrorMessage = (c: MatrixCase): string => `${c.id} model broke`
export const missingFile = (c: MatrixCase): string => `missing-${c.id}.txt`
export const rootPrompt = (c: MatrixCase): string => `start ${tok(c, 0)}`
export const resumePrompt = (c: MatrixCase): string => `again ${resumeTok(c, 0)}`
/** Answer of a parent woken by a result that names no case (a timeout's task_error). */
export const NOTED = 'noted the background result'

export type Reply = Record<string, unknown>
const SLOW = 30_000

function task(c: MatrixCase, k: number, prompt: string, extra: Record<string, unknown>): Reply {
  const type = { subagent_type: c.chain[k - 1] === 'fork' ? 'fork' : agentAt(c, k) }
  return { name: 'task', input: { ...type, description: `L${k} of ${c.id}`, prompt, ...extra } }
}

/** Phase 1: the root calls the first level, each level the next, the last one ends as the outcome says. */
export function caseReplies(c: MatrixCase): Reply[] {
  return caseRepliesWith(c, leafReplies(c))
}

/** The same, with the last child's own replies given (a row whose child behaves its own way). */
export function caseRepliesWith(c: MatrixCase, leaf: Reply[]): Reply[] {
  const n = depthOf(c)
  const replies: Reply[] = []
  for (let k = 0; k < n; k++) {
    const last = k === n - 1 ? { ...(c.mode === 'background' ? { background: true } : {}), ...c.extra } : {}
    replies.push({ match: tok(c, k), step: 1, repeat: true, tools: [task(c, k + 1, `work ${tok(c, k + 1)}`, last)] })
    replies.push({ match: tok(c, k), step: 2, repeat: true, text: doneText(c, k) })
  }
  // A parent woken by (or reading, mid-turn) its background child's result.
  replies.push({ match: doneText(c, n), repeat: true, text: wokeText(c, n - 1) })
  replies.push({ match: modelErrorMessage(c), repeat: true, text: wokeText(c, n - 1) })
  replies.push(...leaf)
  return replies
}

function leafReplies(c: MatrixCase): Reply[] {
  const at = tok(c, depthOf(c))
  switch (c.outcome) {
    case 'success':
    case 'resume':
      return [{ match: at, repeat: true, text: doneText(c, depthOf(c)) }]
    case 'tool-error':
      return [
        { match: at, step: 1, repeat: true, tools: [{ name: 'read_file', input: { path: missingFile(c) } }] },
        { match: at, step: 2, repeat: true, text: toolErrorText(c) },
      ]
    case 'approval-wait':
      // Asks the person (writing a file asks in this group), who takes longer than the whole timeout to answer.
      return [
        { match: at, step: 1, repeat: true, tools: [{ name: 'write_file', input: { path: `approved-${c.id}.txt`, content: c.id } }] },
        { match: at, step: 2, repeat: true, text: doneText(c, depthOf(c)) },
      ]
    case 'model-error':
      return [{ match: at, repeat: true, error: { status: 400, message: modelErrorMessage(c) } }]
    case 'stop':
    case 'timeout':
    case 'restart':
      // Never answers by itself: the person, the clock or the kill ends it.
      return [{ match: at, repeat: true, delayMs: SLOW, text: 'too late' }]
  }
}

/** Phase 2 of `resume`: the root resumes level 1 by its task_id, each level the next, down to the last child. */
export function resumeReplies(c: MatrixCase, taskIds: string[]): Reply[] {
  const n = depthOf(c)
  const replies: Reply[] = []
  for (let k = 0; k < n; k++) {
    const extra = { task_id: taskIds[k + 1], ...(k === n - 1 && c.mode === 'background' ? { background: true } : {}) }
    replies.push({ match: resumeTok(c, k), step: 1, repeat: true, tools: [task(c, k + 1, `more ${resumeTok(c, k + 1)}`, extra)] })
    replies.push({ match: resumeTok(c, k), step: 2, repeat: true, text: resumedText(c, k) })
  }
  replies.push({ match: resumedText(c, n), repeat: true, text: wokeText(c, n - 1) })
  replies.push({ match: resumeTok(c, n), repeat: true, text: resumedText(c, n) })
  return replies
}

export function scriptFor(replies: Reply[]): Record<string, unknown> {
  return {
    agents: {
      title: [{ text: 'Matrix', repeat: true }],
      '*': [...replies, { match: 'Automated notice', repeat: true, text: NOTED }],
    },
  }
}
