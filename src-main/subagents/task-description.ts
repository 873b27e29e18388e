import { FORK_TYPE } from './fork'

/** One agent of the listing, with the tools it would really have as the caller's child (its rules ∩ the caller's). */
export interface ListedAgent {
  name: string
  description: string
  tools: string[]
  /** keeps a session of its own (inspectable) */
  inspectable: boolean
}

export interface TaskDescriptionOptions {
  agents: ListedAgent[]
  /** who reads the result in the end: the person (the user, for a root agent) or the agent that called the caller */
  caller: 'root' | 'subagent'
  /** the caller has the sessions_* tools (then the listing says which agents they reach) */
  sessionTools: boolean
}

/**
 * The `task` tool's description: what each agent would have here, when to delegate and when not, how to write the
 * prompt, and what comes back. docs/prompts.md explains each rule; the contract suite snapshots the result.
 */
export function taskDescription(o: TaskDescriptionOptions): string {
  const reader = o.caller === 'root' ? 'the user' : 'your caller'
  const session = o.sessionTools ? ' Keeps a session (sessions_* tools reach it).' : ' Keeps a session the user can open.'
  return [
    `Start a subagent: an agent that does one task in a fresh context and reports back to you once. ${cap(reader)} does not see its result.`,
    '',
    'Agents (subagent_type) and the tools each would have:',
    ...o.agents.map((a) => `- ${a.name}: ${sentence(a.description)}${a.inspectable ? session : ''} Tools: ${a.tools.length ? a.tools.join(', ') : 'none'}.`),
    `- ${FORK_TYPE}: a copy of you that inherits this conversation and your tools; always in the background; cannot fork again.`,
    '',
    'When to use it:',
    '- For independent, sizeable work: searches across many files, a separate part of a change, research whose details you will not need. Start independent subagents in the same step: they run in parallel.',
    '- Not for what takes you a few tool calls (reading a known file, finding a known symbol, one edit). Never redo work you delegated, or give two subagents the same job.',
    '- Subagents that write at the same time must not share files: split the files between them, or use isolation "worktree".',
    '',
    'A typed subagent sees only your prompt: say what to do and why, what you already know (paths, findings), whether to change code or only research, and what to return. It cannot ask you questions.',
    '',
    `The result comes back as <task_result agent="…" task_id="…"> (with status="incomplete" and the reason when it stopped early) or <task_error …>. Check changes a subagent reports before you call them done, and tell ${reader} what matters. task_id with a new prompt continues that subagent with its memory (not while it still runs). With background: true the call returns at once and the result arrives later as a notice: do not poll for it or guess it; go on with other work, or end your turn.`,
  ].join('\n')
}

const cap = (s: string) => s[0].toUpperCase() + s.slice(1)

/** A description as a sentence: real agent files often end theirs without a stop, which ran it into "Tools:". */
function sentence(text: string): string {
  const t = text.trim()
  return /[.!?…。)"'`]$/.test(t) ? t : `${t}.`
}
