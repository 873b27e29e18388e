import type { HookEventName } from '../../src-shared'
import { claudeToolInput, claudeToolName, hookLabel, runHookEvent, type HookEnv, type HookNote, type HookOutcome } from '../hooks'
import type { LoopHooks } from '../loop'
import type { SandboxPolicy } from '../sandbox'
import type { RunLevel } from './level'

/**
 * The loop's hook port for one run, from the run's hook snapshot: PreToolUse and PostToolUse under Claude Code's
 * tool names and argument shapes; at a turn's start UserPromptSubmit and SessionStart (a root) or SubagentStart (a
 * child); when the model ends its turn Stop (a root) or SubagentStop (a child). Undefined when no hook is configured,
 * so a run without hooks pays nothing.
 */
export function loopHooks(level: RunLevel, policy: () => SandboxPolicy): LoopHooks | undefined {
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
      // A command's `!` lines ran before the turn, in a notice after the person's message: look past it, or a prompt
      // hook would never see (nor be able to block) a command's expansion.
      let at = history.length - 1
      while (at > 0 && history[at].metadata.notice === 'command') at--
      const last = history[at]
      // Only a new prompt of the person (or a child's task): not a retry, a background result, a hook's own message.
      if (!last || last.role !== 'user' || last.metadata.hook || last.metadata.synthetic || last.metadata.notice) return undefined
      const first = history.filter((m) => m.role === 'user' && !m.metadata.hook && !m.metadata.synthetic).length === 1
      const prompt = last.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text ?? '')).join('\n')
      const runs: { event: HookEventName; run: Promise<HookOutcome> | undefined }[] = child
        ? [{ event: 'SubagentStart', run: first ? runHookEvent(set, 'SubagentStart', level.agent.name, { agent_id: level.sessionId, agent_type: level.agent.name }, env) : undefined }]
        : [
            { event: 'SessionStart', run: first ? runHookEvent(set, 'SessionStart', 'startup', { source: 'startup' }, env) : undefined },
            { event: 'UserPromptSubmit', run: runHookEvent(set, 'UserPromptSubmit', '', { prompt }, env) },
          ]
      if (!runs.some((r) => r.run)) return undefined
      return Promise.all(runs.map((r) => r.run)).then((outcomes) => {
        const out: { block?: { text: string; messageId: string }; context: string[]; notices: string[] } = { context: [], notices: [] }
        outcomes.forEach((o, i) => {
          if (!o) return
          // Only UserPromptSubmit may block (as in Claude Code); a SessionStart "block" is only said to the person.
          const stop = o.block ?? o.stop
          if (stop && runs[i]?.event === 'UserPromptSubmit') out.block ??= { text: `Your prompt was not sent: ${hookLabel(stop.hook)} blocked it: ${stop.text}`, messageId: last.id }
          else if (stop) out.notices.push(said(stop, 'notice'))
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
        notices: [...(o.stop ? [said(o.stop, 'notice')] : []), ...o.notices.map((n) => said(n, 'notice'))],
      }))
    },
    before({ toolName, input, toolCallId }) {
      const run = runHookEvent(set, 'PreToolUse', claudeToolName(toolName), common(toolName, input, toolCallId), env)
      return run?.then((o) => ({
        block: o.block ? `Blocked by ${hookLabel(o.block.hook)}: ${o.block.text}` : o.stop ? `Blocked by ${hookLabel(o.stop.hook)}: ${o.stop.text}` : undefined,
        ask: o.ask ? `${hookLabel(o.ask.hook)} asks for approval: ${o.ask.text}` : undefined,
        notes: [...o.context.map((n) => said(n, 'adds')), ...o.notices.map((n) => said(n, 'notice'))],
      }))
    },
    after({ toolName, input, toolCallId, output }) {
      const fields = { ...common(toolName, input, toolCallId), tool_response: claudeToolResponse(toolName, input, output, level.workdir) }
      const run = runHookEvent(set, 'PostToolUse', claudeToolName(toolName), fields, env)
      return run?.then((o) => [
        ...(o.block ? [said(o.block, 'says')] : []),
        ...(o.stop ? [said(o.stop, 'says')] : []),
        ...o.context.map((n) => said(n, 'adds')),
        ...o.notices.map((n) => said(n, 'notice')),
      ])
    },
  }
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
