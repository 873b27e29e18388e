import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk/unstable'
import { foldEvent, type AgentEvent, type ApprovalRecord } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'
import { answerFor, approvalContent, approvalTitle, permissionOptions } from './approval-view'
import type { LiveView } from './live-view'
import { toolKind, toolLocations } from './tool-view'

export interface PermissionPorts {
  requestPermission(request: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>
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
  private readonly asking = new Map<string, { controller: AbortController; toolCallId: string; view: LiveView }>()
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
    // Allowed: the call, pending while it waited, runs now. Denied or cancelled: its end says failed.
    if (leaf.outcome === 'approved') asked.view.allowed(asked.toolCallId)
  }

  /** Ask the editor; its answer resolves the host's approval record. */
  ask(a: ApprovalRecord): void {
    if (this.asking.has(a.id) || this.closed) return
    const controller = new AbortController()
    const { sessionId, view, child } = this.ports.placeOf(a)
    const { toolCallId, pending } = view.callForApproval(a)
    this.asking.set(a.id, { controller, toolCallId, view })
    // In a child's own session the agent path would only repeat whose session it is.
    const title = child ? approvalTitle({ ...a, agentPath: [] }) : approvalTitle(a)
    const input = a.kind === 'tool' ? a.arguments.input : undefined
    const request: RequestPermissionRequest = {
      sessionId,
      toolCall: {
        toolCallId,
        title,
        kind: toolKind(a.toolName),
        // A call waiting to start is pending; one already running (asked again mid-way) keeps its status.
        ...(pending ? { status: 'pending' as const } : {}),
        content: approvalContent(a, view.workdir),
        locations: toolLocations(a.toolName, input, view.workdir),
      },
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
