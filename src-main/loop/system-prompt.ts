import path from 'node:path'
import type { AgentInfo, ModelRef } from '../../src-shared'
import { readText } from '../files'

export const CALLER_AGENT_LINE = 'Your caller is another agent; return structured output.'

const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md']
const MAX_INSTRUCTIONS = 20_000

/** Agent prompt (and the skills it preloads) → workspace instructions (AGENTS.md, else CLAUDE.md) → environment → tool catalog. */
export function buildSystemPrompt(o: {
  agent: AgentInfo
  workdir: string
  tools: { name: string; description: string }[]
  model: ModelRef
  now?: Date
  /** the conversation's scratchpad folder (told to every agent of it) */
  scratchpad?: string
  /** the git worktree a child works in (isolation: worktree) */
  worktree?: { branch: string }
  /** the skills its definition preloads (`skills:`), rendered: part of its own instructions */
  preloaded?: string
}): string {
  const sections = [o.agent.prompt.trim() || `You are the "${o.agent.name}" agent. ${o.agent.description}`]
  if (o.preloaded) sections.push(o.preloaded)
  if (o.agent.caller === 'agent') sections.push(CALLER_AGENT_LINE)
  const instructions = readInstructions(o.workdir)
  if (instructions) sections.push(`# Instructions from ${instructions.file}\n${instructions.text}`)
  sections.push(
    [
      '# Environment',
      `Working directory: ${o.workdir}`,
      `Platform: ${process.platform}`,
      `Date: ${(o.now ?? new Date()).toISOString().slice(0, 10)}`,
      `Model: ${o.model.provider}/${o.model.model}`,
      'Paths are relative to the working directory. Paths outside it work only where the user\'s rules allow them.',
      ...(o.worktree ? [worktreeLine(o.worktree.branch)] : []),
      ...(o.scratchpad ? [scratchpadLine(o.scratchpad, o.tools.some((t) => WRITE_TOOLS.has(t.name)))] : []),
    ].join('\n'),
  )
  if (o.tools.length) sections.push(`# Tools\n${o.tools.map((t) => `- ${t.name}: ${firstLine(t.description)}`).join('\n')}`)
  return sections.join('\n\n')
}

const WRITE_TOOLS = new Set(['write_file', 'edit_file', 'bash'])

/** The conversation's scratchpad, in the words of what this agent can do there. */
function scratchpadLine(dir: string, canWrite: boolean): string {
  const what = canWrite ? 'that you may read and write without asking: keep notes and findings there for the other agents.' : 'where other agents keep notes and findings you may read without asking.'
  return `Scratchpad: ${dir} — a folder shared by every agent of this conversation, outside the workspace, ${what}`
}

/** A child in a worktree is told so, and how its work reaches its caller (its branch, merged by the caller). */
function worktreeLine(branch: string): string {
  return `This is a git worktree of its own, on branch ${branch}: the user's checkout does not change. When you finish, your changes are committed to that branch for your caller to merge.`
}

function readInstructions(workdir: string): { file: string; text: string } | undefined {
  for (const file of INSTRUCTION_FILES) {
    const read = readText(path.join(workdir, file))
    // Only a missing file is expected here; anything else (permissions, a directory) is worth surfacing.
    if (read.kind === 'missing') continue
    if (read.kind === 'unreadable') return { file, text: `(could not read ${file}: ${read.reason})` }
    const { text } = read
    return { file, text: text.length > MAX_INSTRUCTIONS ? `${text.slice(0, MAX_INSTRUCTIONS)}\n… [truncated]` : text }
  }
  return undefined
}

function firstLine(s: string): string {
  const line = s.split('\n')[0]
  return line.length > 200 ? `${line.slice(0, 197)}…` : line
}
