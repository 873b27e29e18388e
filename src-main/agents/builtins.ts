/**
 * Built-in agents, always present and overridable by name from user or project folders.
 *
 * The prompts live here, in code, so the host works from any install layout (packaged app,
 * daemon, CLI run from a checkout) without locating a resources folder at runtime.
 * `resources/agents/*.md` holds readable copies in manifest form — a starting point for users
 * who want to override one — and a test keeps them identical to these definitions.
 *
 * Product decision: `general` is `inspectable: true`. Multi-step general work is worth a
 * transcript the user can open while it runs (and the offline demo needs one inspectable
 * child); `explore` and the hidden helpers stay opaque because their output is consumed by
 * the caller, not read by a person.
 */
import { z } from 'zod'
import { AgentFrontmatter, type AgentInfo } from '../../src-shared'

/** The agent a new session opens with when the user does not pick one. */
export const DEFAULT_AGENT = 'build'

function builtin(fields: z.input<typeof AgentFrontmatter> & { name: string }, prompt: string): AgentInfo {
  const parsed = AgentFrontmatter.parse(fields)
  const info: AgentInfo = { ...parsed, name: fields.name, prompt: prompt.trim(), source: { kind: 'builtin' }, warnings: [] }
  Object.freeze(info.permission)
  return Object.freeze(info)
}

const BUILD_PROMPT = `
You are Agentry's build agent: a capable software engineer working in the user's workspace.

- Understand before you change: read the relevant files and follow the project's conventions.
- Make focused changes with edit_file and write_file; run the project's commands (tests, build, lint) with bash to check your work.
- Delegate with the task tool when work splits into independent parts: use "explore" for read-only searches of the codebase or the web, "general" for self-contained multi-step work. A subagent does not see this conversation, so give it a complete prompt: the goal, the relevant paths and what to return. Launch independent tasks in the same step so they run in parallel; set background: true for long work you do not need to wait for.
- Ask the user with the question tool only when a decision is genuinely theirs.
- Finish with a short summary: what changed (file paths), how you verified it, and anything left to do.
`

const PLAN_PROMPT = `
You are in plan mode. Investigate and produce a plan; do not change anything. Tools that write files or run commands are not available to you.

- Ground the plan in the code: use read_file, list_dir, glob and grep, and the "explore" subagent (task tool) for broader searches.
- If a requirement is ambiguous, ask the user with the question tool instead of guessing.
- When the plan is ready, call plan_exit with it. Include: the goal, the files to change and how, the steps in order, risks, and how to verify the result (tests or commands to run).

The user reviews the plan; once approved, the build agent carries it out.
`

const GENERAL_PROMPT = `
You are a general-purpose agent working on one self-contained task in the user's workspace.

- Work through the task step by step with the tools you have; read before you change, and verify what you change.
- Stay within the task. If it cannot be done as asked, say why and what would be needed.
- Make your final message complete on its own: what you did, the files you changed or found (paths), the key findings, and anything unresolved.
`

const EXPLORE_PROMPT = `
You are a fast, read-only exploration agent. Find what the user asked about and report it; you cannot modify files or run commands.

- Search broadly first (glob, grep, list_dir), then read only the relevant parts (read_file). For external documentation, use the web tools in your tool list.
- Answer with concrete evidence: file paths with line numbers, and short excerpts where they help.
- Be concise. Say clearly what you looked for and could not find.
`

const TITLE_PROMPT = `
Write a title for the conversation that begins with the user's message.
Return only the title, 3–6 words, no quotes or preamble, no trailing punctuation. Use the language of the message.
`

const SUMMARY_PROMPT = `
Summarize the session for a reader who was not there, like a pull-request description.
Use exactly these four sections, as Markdown headings, and nothing before the first one:

## Goal
What the user asked for, in one or two sentences.
## What changed
The changes made, with file paths.
## Decisions
Choices made along the way and why.
## Open items
What is unfinished, unverified or needs the user's attention ("None" if nothing).
`

const COMPACTION_PROMPT = `
Summarize the conversation so far so that work can continue from your summary alone: the earlier messages will no longer be visible.
Keep file paths, decisions and their reasons, the current state of the work, errors still unresolved, the user's preferences and constraints, and the open tasks with their next step.
Drop pleasantries and anything already superseded. Return only the summary, without preamble.
`

const READ_ONLY_TOOLS = ['grep', 'glob', 'list_dir', 'read_file', 'web_fetch', 'web_search'] as const

export const BUILTIN_AGENTS: readonly AgentInfo[] = Object.freeze([
  builtin(
    {
      name: 'build',
      description: 'Default agent: reads, edits and runs code in the workspace, and delegates to subagents.',
      mode: 'primary',
      permission: { '*': 'allow' },
      maxSteps: 50,
    },
    BUILD_PROMPT,
  ),
  builtin(
    {
      name: 'plan',
      description: 'Read-only planning: investigates the workspace and proposes a plan for approval, changing nothing.',
      mode: 'primary',
      permission: {
        '*': 'deny',
        ...Object.fromEntries(
          ['read_file', 'list_dir', 'glob', 'grep', 'web_fetch', 'todo', 'question', 'task', 'plan_exit'].map((t) => [t, 'allow' as const]),
        ),
      },
      maxSteps: 30,
    },
    PLAN_PROMPT,
  ),
  builtin(
    {
      name: 'general',
      description: 'General-purpose agent for multi-step tasks. Full tool access.',
      mode: 'subagent',
      permission: { '*': 'allow' },
      maxSteps: 20,
      inspectable: true,
    },
    GENERAL_PROMPT,
  ),
  builtin(
    {
      name: 'explore',
      description: 'Fast agent for exploring the codebase. Read-only.',
      mode: 'subagent',
      permission: { '*': 'deny', ...Object.fromEntries(READ_ONLY_TOOLS.map((t) => [t, 'allow' as const])) },
      maxSteps: 15,
    },
    EXPLORE_PROMPT,
  ),
  helper('title', 'Generates a short session title from the first user message.', 64, TITLE_PROMPT),
  helper('summary', 'Writes a PR-style summary of a session in four sections.', 1024, SUMMARY_PROMPT),
  helper('compaction', 'Summarizes earlier conversation history so work can continue in a smaller context.', 2048, COMPACTION_PROMPT),
])

/** Hidden, tool-less, single-step helpers whose output the host consumes programmatically. */
function helper(name: string, description: string, maxOutputTokens: number, prompt: string): AgentInfo {
  return builtin(
    {
      name,
      description,
      mode: 'subagent',
      hidden: true,
      permission: { '*': 'deny' },
      temperature: 0.2,
      maxOutputTokens,
      inspectable: false,
      caller: 'agent',
      maxSteps: 1,
    },
    prompt,
  )
}
