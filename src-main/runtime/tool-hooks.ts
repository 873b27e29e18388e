import type { HookEventName, MessageWithParts } from '../../src-shared'
import { claudeToolInput, claudeToolName, hookLabel, runHookEvent, type HookEnv, type HookNote, type HookOutcome, type HookSet } from '../hooks'
import type { Approvals } from '../approvals'
import type { LoopHooks } from '../loop'
import type { SandboxPolicy } from '../sandbox'
import type { RunLevel } from './level'

/**
 * The loop's hook port for one run, from the run's hook snapshot: PreToolUse, PostToolUse and PostToolUseFailure
 * under Claude Code's tool names and argument shapes; at a turn's start UserPromptSubmit and SessionStart (a root) or
 * SubagentStart (a child); when the model ends its turn Stop (a root) or SubagentStop (a child); PreCompact before a
 * compaction. Undefined when no hook is configured, so a run without hooks pays nothing.
 *
 * `started`: the root sessions that have had a prompt in this host process (the runtime's), for SessionStart's
 * `resume` source.
 */
export function loopHooks(level: RunLevel, policy: () => SandboxPolicy, started: Set<string>): LoopHooks | undefined {
  const set = level.settings.hooks
  if (!set || set.byEvent.size === 0) return undefined
  const env = (): HookEnv => ({ sessionId: level.sessionId, workdir: level.workdir, policy: policy(), signal: level.signal })
  const common = (toolName: string, input: unknown, toolCallId: string) => ({
    tool_name: claudeToolName(toolName),
    tool_input: claudeToolInput(toolName, input, level.workdir),
    tool_use_id: toolCallId,
    // Claude Code names the subagent a hook fires in.
    ...(level.depth > 0 ? { agent_type: level.agent.name, agent_id: level.sessionId } : {}),
  })
  const child = level.depth > 0
  return {
    start(history) {
      // A command's `!` lines ran before the turn, in a notice after the person's message, and an automatic
      // compaction (its marker, its PreCompact hooks' notices) too: look past them, or a prompt hook would never see
      // (nor be able to block) a command's expansion, nor run in a turn that compacted first.
      let at = history.length - 1
      while (at > 0 && (history[at].metadata.notice === 'command' || history[at].metadata.compaction || history[at].metadata.compacting)) at--
      const last = history[at]
      // Only a new prompt of the person (or a child's task): not a retry, a background result, a hook's own message.
      if (!last || last.role !== 'user' || last.metadata.hook || last.metadata.synthetic || last.metadata.notice) return undefined
      const first = history.filter((m) => m.role === 'user' && !m.metadata.hook && !m.metadata.synthetic).length === 1
      const prompt = last.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text ?? '')).join('\n')
      const source = child ? undefined : sessionSource(history, at, first, !started.has(level.sessionId))
      if (!child) started.add(level.sessionId)
      const runs: { event: HookEventName; run: Promise<HookOutcome> | undefined }[] = child
        ? [{ event: 'SubagentStart', run: first ? runHookEvent(set, 'SubagentStart', level.agent.name, { agent_id: level.sessionId, agent_type: level.agent.name }, env) : undefined }]
        : [
            { event: 'SessionStart', run: source ? runHookEvent(set, 'SessionStart', source, { source }, env) : undefined },
            { event: 'UserPromptSubmit', run: runHookEvent(set, 'UserPromptSubmit', '', { prompt }, env) },
          ]
      if (!runs.some((r) => r.run)) return undefined
      return Promise.all(runs.map((r) => r.run)).then((outcomes) => {
        const out: { block?: { text: string; messageId: string }; context: string[]; notices: string[]; halt?: string } = { context: [], notices: [] }
        outcomes.forEach((o, i) => {
          if (!o) return
          // Only UserPromptSubmit may block (as in Claude Code); a SessionStart "block" is only said to the person.
          const prompting = runs[i]?.event === 'UserPromptSubmit'
          const stop = o.block ?? o.stop
          if (stop && prompting) out.block ??= { text: `Your prompt was not sent: ${hookLabel(stop.hook)} blocked it: ${stop.text}`, messageId: last.id }
          else if (o.block) out.notices.push(said(o.block, 'notice'))
          // SessionStart's / SubagentStart's `continue: false` ends the turn before its first request.
          if (o.stop && !prompting) out.halt ??= halted(o.stop)
          out.context.push(...o.context.map((n) => `${said(n, 'adds')}`))
          out.notices.push(...o.notices.map((n) => said(n, 'notice')))
        })
        return out
      })
    },
    stop({ text, active }) {
      const fields = { stop_hook_active: active, last_assistant_message: text, ...(child ? { agent_id: level.sessionId, agent_type: level.agent.name } : {}) }
      const run = child ? runHookEvent(set, 'SubagentStop', level.agent.name, fields, env) : runHookEvent(set, 'Stop', '', fields, env)
      return run?.then((o) => ({
        // A reason is needed to go on: Claude Code's `decision: "block"` without one is not a continuation.
        reason: o.block?.text ? said(o.block, 'says') : undefined,
        notices: o.notices.map((n) => said(n, 'notice')),
        halt: o.stop ? halted(o.stop) : undefined,
      }))
    },
    before({ toolName, input, toolCallId }) {
      const run = runHookEvent(set, 'PreToolUse', claudeToolName(toolName), common(toolName, input, toolCallId), env)
      return run?.then((o) => ({
        block: o.block ? `Blocked by ${hookLabel(o.block.hook)}: ${o.block.text}` : o.stop ? `Blocked by ${hookLabel(o.stop.hook)}: ${o.stop.text}` : undefined,
        ask: o.ask ? `${hookLabel(o.ask.hook)} asks for approval: ${o.ask.text}` : undefined,
        notes: [...o.context.map((n) => said(n, 'adds')), ...o.notices.map((n) => said(n, 'notice'))],
        halt: o.stop ? halted(o.stop) : undefined,
      }))
    },
    after({ toolName, input, toolCallId, output }) {
      const fields = { ...common(toolName, input, toolCallId), tool_response: claudeToolResponse(toolName, input, output, level.workdir) }
      return runHookEvent(set, 'PostToolUse', claudeToolName(toolName), fields, env)?.then(afterCall)
    },
    failed({ toolName, input, toolCallId, error, interrupted }) {
      const fields = { ...common(toolName, input, toolCallId), error, is_interrupt: interrupted }
      return runHookEvent(set, 'PostToolUseFailure', claudeToolName(toolName), fields, env)?.then(afterCall)
    },
    compact({ trigger, instructions }) {
      return runHookEvent(set, 'PreCompact', trigger, { trigger, custom_instructions: instructions }, env)?.then((o) => {
        const stop = o.block ?? o.stop
        return { block: stop ? `${hookLabel(stop.hook)} blocked it: ${stop.text}` : undefined, notices: [...o.context, ...o.notices].map((n) => said(n, 'notice')) }
      })
    },
  }
}

/** PostToolUse / PostToolUseFailure: what the model reads after the result (a block's reason, context, notices). */
function afterCall(o: HookOutcome): { notes: string[]; halt?: string } {
  return {
    notes: [...(o.block ? [said(o.block, 'says')] : []), ...o.context.map((n) => said(n, 'adds')), ...o.notices.map((n) => said(n, 'notice'))],
    halt: o.stop ? halted(o.stop) : undefined,
  }
}

/**
 * SessionStart's source for a root's new prompt: `startup` (the conversation's first prompt), `compact` (the
 * conversation was compacted since the person's previous prompt — by /compact or by this turn's own compaction),
 * `resume` (the first prompt this host process runs for a conversation that already had prompts). Otherwise none:
 * SessionStart does not run.
 */
function sessionSource(history: MessageWithParts[], at: number, first: boolean, fresh: boolean): 'startup' | 'compact' | 'resume' | undefined {
  if (first) return 'startup'
  let previous = at - 1
  while (previous >= 0 && !(history[previous].role === 'user' && !history[previous].metadata.hook && !history[previous].metadata.synthetic && !history[previous].metadata.notice)) previous--
  for (let i = previous + 1; i < history.length; i++) if (history[i].metadata.compaction) return 'compact'
  return fresh ? 'resume' : undefined
}

/** A hook's `continue: false`, as the person reads it when the turn ends. */
function halted(n: HookNote): string {
  return `Stopped by ${hookLabel(n.hook)}: ${n.text}`
}

function said(n: HookNote, how: 'says' | 'adds' | 'notice'): string {
  return how === 'notice' ? `[${hookLabel(n.hook)} — notice: ${n.text}]` : `[${hookLabel(n.hook)} ${how}:]\n${n.text}`
}

/** `tool_response` close to Claude Code's for the tools hook scripts usually read; the output text otherwise. */
function claudeToolResponse(toolName: string, input: unknown, output: string, workdir: string): unknown {
  const claudeInput = claudeToolInput(toolName, input, workdir) as Record<string, unknown> | undefined
  if (toolName === 'bash') return { stdout: output, stderr: '', interrupted: false, isImage: false }
  if (toolName === 'write_file' || toolName === 'edit_file') return { ...claudeInput, filePath: claudeInput?.file_path, success: true }
  return { output }
}

/**
 * The approvals service as a run's tools ask it, telling Notification hooks of each question the person is asked as
 * it is asked: a tool call's approval or a plan is `permission_prompt`, a question of the model `elicitation_dialog`
 * (the matcher matches the type). Never awaited — the approval is raised at once — and its output is not read: a
 * Notification hook cannot answer, block or delay anything. The service itself when no Notification hook is set.
 */
export function notifyingApprovals(approvals: Approvals, level: RunLevel, policy: () => SandboxPolicy): Pick<Approvals, 'request'> {
  const set = level.settings.hooks
  if (!set?.byEvent.has('Notification')) return approvals
  return {
    request(req) {
      const type = req.kind === 'question' ? 'elicitation_dialog' : 'permission_prompt'
      const message =
        req.kind === 'question'
          ? `Agentry has a question for you: ${req.arguments.question ?? ''}`.trim()
          : req.kind === 'plan'
            ? 'Agentry needs your approval of its plan'
            : `Agentry needs your permission to use ${claudeToolName(req.toolName)}`
      const fields = { message, notification_type: type, ...(level.depth > 0 ? { agent_type: level.agent.name, agent_id: level.sessionId } : {}) }
      void runHookEvent(set, 'Notification', type, fields, () => ({ sessionId: level.sessionId, workdir: level.workdir, policy: policy(), signal: level.signal }))
      return approvals.request(req)
    },
  }
}

/** Claude Code's SessionEnd reasons, as Agentry uses them (see docs/decisions.md, Hooks). */
export type SessionEndReason = 'clear' | 'logout' | 'prompt_input_exit' | 'other'

/**
 * SessionEnd hooks of a root session (the matcher matches the reason). They cannot block or change anything: their
 * output is not read, and each is stopped at its own timeout. Undefined when none matches.
 */
export function sessionEndHooks(set: HookSet, o: { sessionId: string; workdir: string; policy: SandboxPolicy; reason: SessionEndReason }): Promise<void> | undefined {
  return runHookEvent(set, 'SessionEnd', o.reason, { reason: o.reason }, () => ({ sessionId: o.sessionId, workdir: o.workdir, policy: o.policy }))?.then(() => undefined)
}
