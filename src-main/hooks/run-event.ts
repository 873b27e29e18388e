import os from 'node:os'
import { z } from 'zod'
import type { HookEventName } from '../../src-shared'
import type { SandboxPolicy } from '../sandbox'
import { matchingHooks, type Hook, type HookSet } from './load-hooks'
import { runHookCommand, type CommandEnding } from './run-command'

/** What a run tells its hooks besides the event's own fields (Claude Code's common input). */
export interface HookEnv {
  sessionId: string
  workdir: string
  transcriptPath?: string
  policy: SandboxPolicy
  signal?: AbortSignal
}

export interface HookNote {
  hook: Hook
  text: string
}

/**
 * The merged effect of every matching hook of one event. A hook can only tighten: `block` (exit 2, a deny, a
 * `decision: "block"`) and `ask` are kept, the worst one winning; `allow` is read and does nothing.
 */
export interface HookOutcome {
  block?: HookNote
  ask?: HookNote
  /** `continue: false`: the agent stops after this (stopReason shown to the person) */
  stop?: HookNote
  /** additionalContext (and, for UserPromptSubmit / SessionStart, plain stdout): added to what the model reads */
  context: HookNote[]
  /** hooks that failed (exit code other than 0 and 2, bad JSON, timeout, could not start) or said systemMessage: the person's */
  notices: HookNote[]
}

const HookOutput = z
  .object({
    continue: z.boolean().optional(),
    stopReason: z.string().optional(),
    systemMessage: z.string().optional(),
    decision: z.string().optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z
      .object({
        permissionDecision: z.enum(['allow', 'deny', 'ask']).optional(),
        permissionDecisionReason: z.string().optional(),
        additionalContext: z.string().optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough()

/** Events whose plain stdout (exit 0, not JSON) is context for the model, as in Claude Code. */
const STDOUT_IS_CONTEXT = new Set<HookEventName>(['UserPromptSubmit', 'SessionStart'])

/** `~/…` for the person's files: how a hook's source is named in the transcript. */
export function hookLabel(h: Hook): string {
  const home = os.homedir()
  const source = h.source.startsWith(`${home}/`) ? `~/${h.source.slice(home.length + 1)}` : h.source
  const cmd = h.command.length > 80 ? `${h.command.slice(0, 77)}…` : h.command
  return `${h.event} hook \`${cmd}\` (${source})`
}

/**
 * Runs the hooks of `event` matching `subject` (tool name, session source, agent type) in parallel, the event's
 * JSON on stdin. Undefined when none matches: the common case costs a map lookup and no allocation of promises.
 */
export function runHookEvent(set: HookSet, event: HookEventName, subject: string, fields: Record<string, unknown>, getEnv: () => HookEnv): Promise<HookOutcome> | undefined {
  const hooks = matchingHooks(set, event, subject)
  if (hooks.length === 0) return undefined
  const env = getEnv()
  const stdin = JSON.stringify({ session_id: env.sessionId, transcript_path: env.transcriptPath ?? '', cwd: env.workdir, permission_mode: 'default', hook_event_name: event, ...fields })
  return Promise.all(
    hooks.map(async (hook) => ({ hook, end: await runHookCommand(hook.command, stdin, { workdir: env.workdir, policy: env.policy, timeoutMs: hook.timeoutSeconds * 1000, signal: env.signal }) })),
  ).then((ends) => merge(event, ends))
}

function merge(event: HookEventName, ends: { hook: Hook; end: CommandEnding }[]): HookOutcome {
  const out: HookOutcome = { context: [], notices: [] }
  for (const { hook, end } of ends) readEnding(event, hook, end, out)
  return out
}

/** One hook's ending under Claude Code's rules: exit 0 (JSON or text), exit 2 (block, stderr), other (a notice). */
function readEnding(event: HookEventName, hook: Hook, end: CommandEnding, out: HookOutcome): void {
  const note = (text: string): HookNote => ({ hook, text: text.trim() })
  if (end.error) return void out.notices.push(note(`could not run (${end.error}); it was skipped`))
  if (end.timedOut) return void out.notices.push(note(`timed out after ${hook.timeoutSeconds} s and was stopped; it was skipped`))
  if (end.code === null) return
  if (end.code === 2) {
    out.block ??= note(end.stderr.trim() || `blocked by ${hookLabel(hook)} (it gave no reason)`)
    return
  }
  if (end.code !== 0) {
    const first = end.stderr.trim().split('\n')[0] ?? ''
    return void out.notices.push(note(`failed with exit code ${end.code}${first ? `: ${first}` : ''}; it was skipped`))
  }
  const text = end.stdout.trim()
  if (!text) return
  if (!text.startsWith('{')) {
    if (STDOUT_IS_CONTEXT.has(event)) out.context.push(note(text))
    return
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    return void out.notices.push(note(`printed output that is not valid JSON (${(err as Error).message}); it was ignored`))
  }
  const parsed = HookOutput.safeParse(json)
  if (!parsed.success) return void out.notices.push(note(`printed JSON of the wrong shape (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}); it was ignored`))
  const o = parsed.data
  const specific = o.hookSpecificOutput
  if (o.systemMessage) out.notices.push(note(o.systemMessage))
  if (o.continue === false) out.stop ??= note(o.stopReason ?? 'a hook stopped the agent')
  const reason = specific?.permissionDecisionReason ?? o.reason
  if (specific?.permissionDecision === 'deny' || o.decision === 'block' || o.decision === 'deny') out.block ??= note(reason || `blocked by ${hookLabel(hook)}`)
  else if (specific?.permissionDecision === 'ask' && event === 'PreToolUse') out.ask ??= note(reason || `${hookLabel(hook)} asks for approval`)
  if (specific?.additionalContext) out.context.push(note(specific.additionalContext))
}
