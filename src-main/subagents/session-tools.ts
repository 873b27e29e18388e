import { z } from 'zod'
import type { MessageWithParts, SessionRecord } from '../../src-shared'
import { isToolPart, toolNameOf } from '../loop'
import { isRunToolContext, type RunLevel } from '../runtime'
import type { SessionsRepository, TranscriptRepository } from '../store'
import { defineTool, ToolError, type ToolContext, type ToolDef } from '../tools'
import { isDescendant } from './child-session'

/** What the session tools read: the stored sessions and their transcripts. */
export interface SessionToolDeps {
  sessions: Pick<SessionsRepository, 'getSession' | 'listSessions'>
  transcript: Pick<TranscriptRepository, 'listMessages'>
  /** running as a task, or a turn of its own */
  isRunning(sessionId: string): boolean
}

const WAIT_POLL_MS = 100
const MAX_WAIT_SECONDS = 300

const levelOf = (ctx: ToolContext): RunLevel => {
  if (!isRunToolContext(ctx)) throw new ToolError('session tools can only run inside an agent run')
  return ctx.level
}

/** The caller's stored descendants (inspectable children and theirs), newest activity first. */
function descendants(d: SessionToolDeps, level: RunLevel): SessionRecord[] {
  const tree = [level.rootSessionId]
  const all: SessionRecord[] = []
  for (let i = 0; i < tree.length; i++) {
    for (const s of d.sessions.listSessions({ parentId: tree[i], includeArchived: true, limit: 100_000 })) {
      tree.push(s.id)
      all.push(s)
    }
  }
  return all.filter((s) => isDescendant(d.sessions, s, level.sessionId)).sort((a, b) => b.updatedAt - a.updatedAt)
}

/** The session `id`, if the caller may reach it (its own descendant); else a tool error that reveals nothing about it. */
function reachable(d: SessionToolDeps, level: RunLevel, id: string): SessionRecord {
  const s = d.sessions.getSession(id)
  if (!s || !isDescendant(d.sessions, s, level.sessionId)) {
    throw new ToolError(`session ${id} is not one of your subagents' sessions: you can reach only sessions below your own (sessions_list shows them).`)
  }
  return s
}

function statusOf(d: SessionToolDeps, s: SessionRecord): string {
  return d.isRunning(s.id) ? 'running' : s.status
}

function renderMessage(m: MessageWithParts): string {
  const lines: string[] = []
  for (const p of m.parts) {
    if (p.type === 'text' && p.data.text) lines.push(String(p.data.text))
    else if (isToolPart(p)) lines.push(`(tool ${toolNameOf(p)}: ${p.toolState ?? 'pending'})`)
  }
  const who = m.metadata.synthetic ? 'result' : m.role
  return `[${who}] ${lines.join('\n') || '(no text)'}`
}

const sessionId = z.string().min(1).max(200).describe('The session id (the task_id of a subagent that keeps a session).')
const targetAsk = (input: { session_id: string }) => ({ kind: 'name' as const, subjects: [input.session_id] })

export function createSessionTools(d: SessionToolDeps): ToolDef[] {
  return [
    defineTool({
      name: 'sessions_list',
      description: 'List the sessions of your subagents that keep one ("Keeps a session" in the task tool\'s list), and of theirs: id, agent, status, label, last activity.',
      parameters: z.object({}).strict(),
      permission: () => ({ kind: 'name', subjects: ['*'] }),
      async execute(_input, ctx) {
        const level = levelOf(ctx)
        const rows = descendants(d, level)
        if (rows.length === 0) return { output: 'No subagent sessions yet (only subagents that keep a session have one).' }
        return {
          output: rows.map((s) => `${s.id}  ${s.agent}  ${statusOf(d, s)}  "${s.title}"  last activity ${new Date(s.updatedAt).toISOString()}${s.archivedAt ? '  (archived)' : ''}`).join('\n'),
        }
      },
    }),
    defineTool({
      name: 'sessions_history',
      description: 'Read the transcript of one of your subagents\' sessions (see sessions_list), a page of messages at a time, oldest first.',
      parameters: z
        .object({
          session_id: sessionId,
          offset: z.number().int().nonnegative().optional().describe('Messages to skip (default 0).'),
          limit: z.number().int().positive().max(100).optional().describe('Messages to show (default 20, at most 100).'),
        })
        .strict(),
      permission: targetAsk,
      async execute(input, ctx) {
        const s = reachable(d, levelOf(ctx), input.session_id)
        const messages = d.transcript.listMessages(s.id)
        const offset = input.offset ?? 0
        const page = messages.slice(offset, offset + (input.limit ?? 20))
        const more = offset + page.length < messages.length ? `\n… ${messages.length - offset - page.length} more (offset ${offset + page.length})` : ''
        return { output: `${s.id} (${s.agent}, ${statusOf(d, s)}), messages ${offset + 1}–${offset + page.length} of ${messages.length}:\n${page.map(renderMessage).join('\n')}${more}` }
      },
    }),
    defineTool({
      name: 'sessions_send',
      description:
        'Send a message to one of your subagents\' sessions (see sessions_list). If it is running, it reads the message before its next model call (use this to correct or redirect it); if it is idle, the message starts a turn on it now.',
      parameters: z.object({ session_id: sessionId, message: z.string().min(1).describe('The message, as its user would write it.') }).strict(),
      permission: targetAsk,
      display: (input) => ({ summary: `message to ${input.session_id}: ${input.message.slice(0, 120)}` }),
      async execute(input, ctx) {
        const level = levelOf(ctx)
        const s = reachable(d, level, input.session_id)
        if (!level.sessionsPort) throw new ToolError('sessions_send is not available in this run (no session runner).')
        if (level.sessionsPort.steer(s.id, input.message)) {
          return { output: `Delivered to ${s.id} while it runs: it reads your message before its next model call (if it finishes first, the message starts a new turn on it). Use sessions_wait for its answer.` }
        }
        const { queued } = level.sessionsPort.prompt(s.id, input.message)
        return { output: queued ? `Queued for ${s.id}: it is busy; your message starts a turn after its current one. Use sessions_wait for the answer.` : `Sent to ${s.id}: it is idle, so your message started a turn on it now. Use sessions_wait for the answer.` }
      },
    }),
    defineTool({
      name: 'sessions_wait',
      description: 'Wait (up to timeout_seconds) for a subagent session you messaged to be idle; returns its status and latest messages. Not for background tasks: their results come by themselves.',
      parameters: z
        .object({
          session_id: sessionId,
          timeout_seconds: z.number().positive().max(MAX_WAIT_SECONDS).optional().describe(`How long to wait (default 30, at most ${MAX_WAIT_SECONDS}).`),
        })
        .strict(),
      permission: targetAsk,
      async execute(input, ctx) {
        const level = levelOf(ctx)
        const s = reachable(d, level, input.session_id)
        const end = Date.now() + (input.timeout_seconds ?? 30) * 1000
        const busy = () => d.isRunning(s.id) || level.sessionsPort?.isRunning(s.id) === true
        while (busy() && Date.now() < end && !ctx.signal.aborted) await new Promise((r) => setTimeout(r, WAIT_POLL_MS))
        const now = d.sessions.getSession(s.id) ?? s
        const latest = d.transcript.listMessages(s.id).slice(-3)
        const state = busy() ? 'still running (timed out waiting)' : statusOf(d, now)
        return { output: `${s.id} (${s.agent}): ${state}\nLatest messages:\n${latest.map(renderMessage).join('\n')}` }
      },
    }),
  ]
}
