/** The two agents that play the opaque and the inspectable levels of the matrix (see matrix-table.ts AGENT_OF). */
export const MATRIX_AGENTS: Record<string, Record<string, unknown>> = {
  opq: { mode: 'subagent', description: 'Opaque helper: its transcript is nested in the caller' },
  insp: { mode: 'subagent', inspectable: true, description: 'Inspectable helper: a session of its own' },
}

/** The person allows everything: the matrix is about how children end, not about asking. */
export const MATRIX_PERMISSIONS = '{ "*": "allow" }'

/** The same, except that writing a file asks: the approval-wait row. */
export const MATRIX_PERMISSIONS_WRITES_ASK = '{ "*": "allow", "write_file": "ask" }'
