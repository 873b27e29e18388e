import type {
  BridgeCallName,
  CallInput,
  CallOutput,
  CallResult,
  SubscribeInput,
  SubscriptionMessage,
} from '../../src-shared'

/**
 * What the page expects as `window.agentry` in the desktop app. The preload builds this object and proves at
 * compile time that it matches (`src-preload/api.ts` … `satisfies AgentryApi`); the page never imports the preload.
 */

/**
 * Things the native shell tells the page: a folder was opened from File › Open Folder…, or the user clicked an OS
 * notification about a root session (show it).
 */
export type AppCommand = { type: 'workspace-opened'; root: string } | { type: 'open-session'; sessionId: string }

/** `sessions.list` → `sessionsList` */
export type CallMethodName<N extends string> = N extends `${infer A}.${infer B}` ? `${A}${Capitalize<B>}` : N

export type AgentryCallMethods = {
  [N in BridgeCallName as CallMethodName<N>]: (input: CallInput<N>) => Promise<CallResult<CallOutput<N>>>
}

export type AgentryApi = AgentryCallMethods & {
  /** Messages for `subscriptionId` arrive through `onEvent`. A refusal comes back as `{ ok: false }`. */
  subscribe(subscriptionId: string, input: SubscribeInput): Promise<CallResult<null>>
  unsubscribe(subscriptionId: string): Promise<CallResult<null>>
  onEvent(cb: (subscriptionId: string, msg: SubscriptionMessage) => void): () => void
  onAppCommand(cb: (command: AppCommand) => void): () => void
}
