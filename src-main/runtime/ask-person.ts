import type { ApprovalArguments } from '../../src-shared'
import type { ApprovalAnswer, ApprovalKind, Approvals } from '../approvals'
import type { RunLevel } from './level'

/**
 * A question to the person from a run that no permission rule decides (a question, a plan, a budget, a fan-out):
 * asked on the approval surface every client shows, as this level, with nothing to "always allow". Tool calls the
 * rules ask about go through authorizeCall instead (their patterns and suggestions).
 */
export function askThePerson(
  approvals: Pick<Approvals, 'request'>,
  level: RunLevel,
  o: { kind: ApprovalKind; toolName: string; toolCallId: string; messageId: string | null; arguments: ApprovalArguments },
): Promise<ApprovalAnswer> {
  return approvals.request({
    sessionId: level.sessionId,
    rootSessionId: level.rootSessionId,
    messageId: o.messageId,
    toolCallId: o.toolCallId,
    toolName: o.toolName,
    kind: o.kind,
    agentPath: level.agentPath,
    arguments: o.arguments,
    patterns: [],
    alwaysSuggestions: [],
    workspaceRoot: level.workdir,
    signal: level.signal,
    emit: level.emit,
  })
}
