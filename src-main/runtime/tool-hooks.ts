import { claudeToolInput, claudeToolName, hookLabel, runHookEvent, type HookEnv, type HookNote } from '../hooks'
import type { ToolCallHooks } from '../loop'
import type { SandboxPolicy } from '../sandbox'
import type { RunLevel } from './level'

/**
 * The loop's hook port for one run: PreToolUse and PostToolUse from the run's hook snapshot, under Claude Code's
 * names and argument shapes. Undefined when neither event has a hook, so a run without hooks pays nothing per call.
 */
export function toolHooks(level: RunLevel, policy: () => SandboxPolicy): ToolCallHooks | undefined {
  const set = level.settings.hooks
  if (!set || (!set.byEvent.has('PreToolUse') && !set.byEvent.has('PostToolUse'))) return undefined
  const env = (): HookEnv => ({ sessionId: level.sessionId, workdir: level.workdir, policy: policy(), signal: level.signal })
  const common = (toolName: string, input: unknown, toolCallId: string) => ({
    tool_name: claudeToolName(toolName),
    tool_input: claudeToolInput(toolName, input, level.workdir),
    tool_use_id: toolCallId,
    // Claude Code names the subagent a hook fires in.
    ...(level.depth > 0 ? { agent_type: level.agent.name, agent_id: level.sessionId } : {}),
  })
  return {
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
