import type { AgentEvent, AlwaysScope, AlwaysSuggestion, ApprovalArguments, ApprovalRecord } from '../../src-shared'
import type { ApprovalsRepository } from '../store'

export type ApprovalKind = ApprovalRecord['kind']

export type ApprovalAnswer =
  | { outcome: 'approved'; feedback?: string }
  | { outcome: 'denied'; feedback?: string }
  | { outcome: 'cancelled'; reason: string }

export interface ApprovalRequest {
  sessionId: string
  rootSessionId: string
  messageId: string | null
  toolCallId: string
  toolName: string
  kind: ApprovalKind
  agentPath: string[]
  arguments: ApprovalArguments
  patterns: string[]
  /** what "Always allow" offers: one pattern per sub-command, each marked risky or not */
  alwaysSuggestions: AlwaysSuggestion[]
  workspaceRoot: string
  signal: AbortSignal
  /** events of the asking session; routed up to the root as subagent_event by the caller */
  emit(event: AgentEvent): void
  /** after an "always" rule is added elsewhere: would this call now be allowed without asking? */
  recheck?(): boolean
}

export interface AnswerInput {
  approvalId: string
  decision: 'allow_once' | 'allow_always' | 'deny'
  patterns?: string[]
  scope?: AlwaysScope
  feedback?: string
}

/**
 * A port of the runtime: "Always allow … for this run" lives with the asking session's run (the run registry) and ends
 * with it. False when that session does not run now (nothing to hold the grant).
 */
export type GrantForRun = (sessionId: string, rule: { tool: string; pattern: string; action: 'allow' }) => boolean

/**
 * A port of the session layer, passed with an answer: an approval whose run is gone (a host restart) may still be
 * resumable from stored state — only the session runner can tell, and continue the run.
 */
export interface ResumeHook {
  /** an approval with no live run: can its session go on from stored state? (then: where it runs) */
  resumable(approval: ApprovalRecord): { workspaceRoot: string } | undefined
  /** its answer is recorded: tell viewers and continue the run */
  resumed(approval: ApprovalRecord): void
}

interface Waiting {
  request: ApprovalRequest
  resolve(answer: ApprovalAnswer): void
}

/**
 * Where approvals are decided: a pending row per `ask`, a promise the asking tool awaits, and the answers —
 * allow once, allow always (a runtime rule that can never lift a deny), deny with feedback for the model.
 */
export class Approvals {
  private readonly waiting = new Map<string, Waiting>()
  private readonly listeners = new Set<(rootSessionId: string) => void>()

  constructor(
    private readonly records: ApprovalsRepository,
    private readonly grantForRun?: GrantForRun,
  ) {}

  /** Persist a pending approval, announce it, and wait for the answer (or for the run's abort). */
  request(req: ApprovalRequest): Promise<ApprovalAnswer> {
    const row = this.records.createApproval({
      sessionId: req.sessionId,
      rootSessionId: req.rootSessionId,
      messageId: req.messageId,
      toolCallId: req.toolCallId,
      toolName: req.toolName,
      kind: req.kind,
      agentPath: req.agentPath,
      arguments: req.arguments,
      patterns: req.patterns,
      alwaysSuggestions: req.alwaysSuggestions,
    })
    // The record as stored is what every client gets: the event carries it whole.
    req.emit({ type: 'tool_approval_required', sessionId: req.sessionId, at: Date.now(), approval: row })
    this.changed(req.rootSessionId)
    return new Promise<ApprovalAnswer>((resolve) => {
      const onAbort = () => this.finish(row.id, 'cancelled', { outcome: 'cancelled', reason: String(req.signal.reason ?? 'aborted') })
      req.signal.addEventListener('abort', onAbort, { once: true })
      this.waiting.set(row.id, {
        request: req,
        resolve: (answer) => {
          req.signal.removeEventListener('abort', onAbort)
          resolve(answer)
        },
      })
      if (req.signal.aborted) onAbort()
    })
  }

  /** `resume`: how to go on when the run that asked is gone (without one, such an approval expires). */
  answer(input: AnswerInput, resume?: ResumeHook): { approval: ApprovalRecord; alsoResolved: string[] } {
    const row = this.records.getApproval(input.approvalId)
    if (!row) throw new ApprovalError('not_found', `No approval ${input.approvalId}. It may have been answered already; reload the session.`)
    if (row.status !== 'pending') {
      throw new ApprovalError('conflict', `Approval ${input.approvalId} is already ${row.status}.`)
    }
    if (input.decision === 'allow_always' && protectedWriteOf(row)) {
      throw new ApprovalError('invalid_request', `This call writes protected configuration (${protectedWriteOf(row)}); it can be allowed once, never always. Answer allow_once or deny.`)
    }
    const waiting = this.waiting.get(row.id)
    const feedback = input.feedback?.trim() || undefined
    if (!waiting) {
      // The run that asked is gone (host restart). A root session's call can go on from stored state; any other
      // is closed as expired, since nothing could act on the answer.
      const target = resume?.resumable(row)
      if (!resume || !target) {
        this.records.resolveApproval(row.id, 'expired', { decision: input.decision })
        throw new ApprovalError('conflict', `The run that asked for this approval is no longer active (expired). Send the prompt again to retry.`)
      }
      // The run it would have held a "for this run" grant is gone: the resumed call is allowed once.
      if (input.decision === 'allow_always' && input.scope !== 'run') this.addAlwaysRules(row, input, target.workspaceRoot)
      const status = input.decision === 'deny' ? 'denied' : 'approved'
      const resolved = this.records.resolveApproval(row.id, status, { outcome: status, feedback })
      resume.resumed(resolved ?? this.records.getApproval(row.id)!)
      this.changed(row.rootSessionId)
      return { approval: this.records.getApproval(row.id)!, alsoResolved: [] }
    }
    const alsoResolved: string[] = []
    if (input.decision === 'deny') {
      this.finish(row.id, 'denied', { outcome: 'denied', feedback })
    } else {
      if (input.decision === 'allow_always') this.addAlwaysRules(row, input, waiting.request.workspaceRoot)
      this.finish(row.id, 'approved', { outcome: 'approved', feedback })
      if (input.decision === 'allow_always') alsoResolved.push(...this.recheckPending(row.rootSessionId))
    }
    return { approval: this.records.getApproval(row.id)!, alsoResolved }
  }

  /**
   * "Always allow": runtime rules for the suggested (or edited) patterns; they can never lift a deny. A session grant is
   * the asking session's: it reaches the sessions below it (their rules read every session on their path), never its
   * parent or a sibling. A run grant lives with the asking run.
   */
  private addAlwaysRules(row: ApprovalRecord, input: AnswerInput, workspaceRoot: string): void {
    const patterns = input.patterns?.length ? input.patterns : row.alwaysSuggestions.length ? row.alwaysSuggestions.map((s) => s.pattern) : row.patterns
    const scope = input.scope ?? 'session'
    if (scope === 'run') {
      for (const pattern of patterns) {
        if (!this.grantForRun?.(row.sessionId, { tool: row.toolName, pattern, action: 'allow' })) {
          throw new ApprovalError('conflict', `The run that asked is no longer running, so there is no run to allow this for. Answer allow_once, or always for the session.`)
        }
      }
      return
    }
    const scopeKey = scope === 'session' ? row.sessionId : workspaceRoot
    for (const pattern of patterns) this.records.addRule({ scope, scopeKey, tool: row.toolName, pattern, action: 'allow' })
  }

  pending(rootSessionId?: string): ApprovalRecord[] {
    return this.records.listApprovals({ rootSessionId, status: 'pending' })
  }

  /** Notified whenever the set of pending approvals of a root session changes (for status and notifications). */
  onChange(cb: (rootSessionId: string) => void): () => void {
    this.listeners.add(cb)
    return () => this.listeners.delete(cb)
  }

  /** "Always" may have covered other waiting calls of the same conversation: let them through without asking. */
  private recheckPending(rootSessionId: string): string[] {
    const resolved: string[] = []
    for (const [id, w] of this.waiting) {
      if (w.request.rootSessionId !== rootSessionId || !w.request.recheck?.()) continue
      this.finish(id, 'approved', { outcome: 'approved' })
      resolved.push(id)
    }
    return resolved
  }

  private finish(id: string, status: 'approved' | 'denied' | 'cancelled', answer: ApprovalAnswer): void {
    const w = this.waiting.get(id)
    if (!w) return
    this.waiting.delete(id)
    this.records.resolveApproval(id, status, answer)
    w.request.emit({
      type: 'tool_approval_resolved',
      sessionId: w.request.sessionId,
      at: Date.now(),
      approvalId: id,
      outcome: status,
    })
    w.resolve(answer)
    this.changed(w.request.rootSessionId)
  }

  private changed(rootSessionId: string): void {
    for (const l of this.listeners) l(rootSessionId)
  }
}

/** The protected path an approval is about (set by the permission gate), if any. */
function protectedWriteOf(row: ApprovalRecord): string | undefined {
  return row.arguments.protected?.path
}

export class ApprovalError extends Error {
  override readonly name = 'ApprovalError'
  constructor(
    readonly code: 'not_found' | 'conflict' | 'invalid_request',
    message: string,
  ) {
    super(message)
  }
}
