import type { ApprovalRecord } from '../../src-shared'

/** A pending approval record for tests that render or route one, with what the test cares about over it. */
export function approvalRecord(over: Partial<ApprovalRecord> = {}): ApprovalRecord {
  return {
    id: 'apr_1',
    sessionId: 'ses_1',
    rootSessionId: 'ses_1',
    messageId: null,
    toolCallId: 'call_1',
    toolName: 'bash',
    kind: 'tool',
    agentPath: ['build'],
    arguments: { input: { command: 'git push origin main' } },
    patterns: ['git push origin main'],
    alwaysSuggestions: [{ pattern: 'git push *', risky: false }],
    status: 'pending',
    answer: null,
    createdAt: 0,
    resolvedAt: null,
    ...over,
  }
}
