import type { RequestPermissionRequest, RequestPermissionResponse, SessionUpdate } from '@agentclientprotocol/sdk/unstable'
import { foldEvent, type AgentEvent, type ApprovalRecord } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'
import { answerFor, approvalContent, approvalTitle, permissionOptions } from './approval-view'
import type { LiveView } from './live-view'

export interface PermissionPorts {
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>
  notify(sessionId: string, update: SessionUpdate): void
  api(): Promise<BridgeClient>
  log(message: string): void
  /** where an approval is asked: the session it shows in and the view whose call it is about */
  placeOf(a: ApprovalRecord): { sessionId: string; view: LiveView; child: boolean }
}

/**
 * Approvals from any depth as the editor's permission requests: each answers the host's approval record (the same
 * one the app shows), and one answered elsewhere (the app, another client) is withdrawn from the editor.
 */
export class PermissionRequests {
  private readonly asking = new Map<string, { controller: AbortController; toolCallId: string; sessionId: string }>()
  private closed = false

  constructor(private readonly ports: PermissionPorts) {}

  onEvent(e: AgentEvent): void {
    const { leaf } = foldEvent(e)
    if (leaf.type === 'tool_approval_required') return this.ask(leaf.approval)
    if (leaf.type !== 'tool_approval_resolved') return
    const asked = this.asking.get(leaf.approvalId)
    if (!asked) return
    this.asking.delete(leaf.approvalId)
    // Answered here or elsewhere: a request still open in the editor is withdrawn.
    asked.controller.abort('answered elsewhere')
    if (leaf.outcome === 'approved') this.ports.notify(asked.sessionId, { sessionUpdate: 'tool_call_update', toolCallId: asked.toolCallId, status: 'in_progress' })
  }

  /** Ask the editor; its answer resolves the host's approval record. */
  ask(a: ApprovalRecord): void {
    if (this.asking.has(a.id) || this.closed) return
    const controller = new AbortController()
    const { sessionId, view, child } = this.ports.placeOf(a)
    const toolCallId = view.callForApproval(a)
    this.asking.set(a.id, { controller, toolCallId, sessionId })
    // In a child's own session the agent path would only repeat whose session it is.
    const title = child ? approvalTitle({ ...a, agentPath: [] }) : approvalTitle(a)
    const request: RequestPermissionRequest = {
      sessionId,
      toolCall: { toolCallId, title, status: 'pending', content: approvalContent(a) },
      options: permissionOptions(a),
    }
    this.ports
      .requestPermission(request, controller.signal)
      .then(async (response) => {
        if (response.outcome.outcome !== 'selected' || controller.signal.aborted) return
        const answer = answerFor(a, response.outcome.optionId)
        if (!answer) return this.ports.log(`the editor picked "${response.outcome.optionId}", which approval ${a.id} did not offer; it stays pending`)
        const api = await this.ports.api()
        await api.calls['approvals.answer']({ approvalId: a.id, ...answer })
      })
      .catch((err: unknown) => {
        if (controller.signal.aborted) return // withdrawn: answered elsewhere, cancelled, or the host went away
        this.ports.log(`approval ${a.id}: ${err instanceof Error ? err.message : String(err)}`)
      })
  }

  /** Withdraw every open request (the host went away, or the session closed: `closed` asks nothing more). */
  withdrawAll(closed = false): void {
    this.closed ||= closed
    for (const a of this.asking.values()) a.controller.abort()
  }
}
