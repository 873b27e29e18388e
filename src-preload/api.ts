import type { BridgeCallName, CallInput, CallOutput, CallResult, SubscribeInput, SubscriptionMessage } from '../src-shared'
import { APP_COMMAND_CHANNEL, EVENT_CHANNEL, PICK_FOLDER_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL, callChannel } from './channels'

/**
 * Things the native shell tells the page: a folder was opened from File › Open Folder…, or the user clicked an OS
 * notification about a root session (show it).
 */
export type AppCommand = { type: 'workspace-opened'; root: string } | { type: 'open-session'; sessionId: string }

/** `sessions.list` → `sessionsList` */
export type CallMethodName<N extends string> = N extends `${infer A}.${infer B}` ? `${A}${Capitalize<B>}` : N

/** One named method per bridge call, with the contract's types. */
export type AgentryCallMethods = {
  [N in BridgeCallName as CallMethodName<N>]: (input: CallInput<N>) => Promise<CallResult<CallOutput<N>>>
}

/** What the page sees as `window.agentry` in the desktop app: exactly what this preload exposes. */
export type AgentryApi = ReturnType<typeof createPreloadApi>

/** The part of Electron's `ipcRenderer` the preload uses; declared here so this file has no Electron import. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
}

/**
 * The fixed object the page sees as `window.agentry`: one named method per bridge call, plus subscriptions.
 * Every channel is spelled out here; the page cannot pick a channel (Electron's security guide: one method per
 * message, never a generic `invoke`).
 */
export function createPreloadApi(ipc: IpcRendererLike) {
  const call =
    <N extends BridgeCallName>(name: N) =>
    (input: CallInput<N>) =>
      ipc.invoke(callChannel(name), input) as Promise<CallResult<CallOutput<N>>>

  const api = {
    workspacesList: call('workspaces.list'),
    workspacesOpen: call('workspaces.open'),
    workspacesComplete: call('workspaces.complete'),
    filesFind: call('files.find'),
    containersStatus: call('containers.status'),
    agentsList: call('agents.list'),
    skillsList: call('skills.list'),
    commandsList: call('commands.list'),
    agentsCreate: call('agents.create'),
    sessionsList: call('sessions.list'),
    sessionsGet: call('sessions.get'),
    sessionsCreate: call('sessions.create'),
    sessionsSetModel: call('sessions.setModel'),
    sessionsSearch: call('sessions.search'),
    sessionsRename: call('sessions.rename'),
    sessionsArchive: call('sessions.archive'),
    sessionsSummarize: call('sessions.summarize'),
    sessionsDelete: call('sessions.delete'),
    messagesPrompt: call('messages.prompt'),
    messagesRetry: call('messages.retry'),
    messagesEdit: call('messages.edit'),
    messagesVersion: call('messages.version'),
    messagesAbort: call('messages.abort'),
    queueList: call('queue.list'),
    queueCancel: call('queue.cancel'),
    approvalsList: call('approvals.list'),
    approvalsAnswer: call('approvals.answer'),
    tasksList: call('tasks.list'),
    tasksAbort: call('tasks.abort'),
    runsMap: call('runs.map'),
    sessionsSteer: call('sessions.steer'),
    tasksWorktree: call('tasks.worktree'),
    changesList: call('changes.list'),
    changesUndo: call('changes.undo'),
    changesRedo: call('changes.redo'),
    changesRevert: call('changes.revert'),
    changesApplyWorktree: call('changes.applyWorktree'),
    changesOpen: call('changes.open'),
    checkpointsSpace: call('checkpoints.space'),
    settingsGet: call('settings.get'),
    settingsUpdate: call('settings.update'),
    settingsBudgets: call('settings.budgets'),
    providersSetKey: call('providers.setKey'),
    providersRemoveKey: call('providers.removeKey'),
    providersTest: call('providers.test'),
    providersSave: call('providers.save'),
    providersRemove: call('providers.remove'),
    modelsList: call('models.list'),
    modelsInfo: call('models.info'),
    rulesList: call('rules.list'),
    rulesRevoke: call('rules.revoke'),
    trustGet: call('trust.get'),
    trustSet: call('trust.set'),
    mcpList: call('mcp.list'),
    hooksList: call('hooks.list'),
    mcpControl: call('mcp.control'),

    /** Messages for `subscriptionId` arrive through `onEvent`. A refusal comes back as `{ ok: false }`. */
    subscribe: (subscriptionId: string, input: SubscribeInput) =>
      ipc.invoke(SUBSCRIBE_CHANNEL, subscriptionId, input) as Promise<CallResult<null>>,
    unsubscribe: (subscriptionId: string) => ipc.invoke(UNSUBSCRIBE_CHANNEL, subscriptionId) as Promise<CallResult<null>>,
    onEvent(cb: (subscriptionId: string, msg: SubscriptionMessage) => void): () => void {
      // The IPC event object (with its `sender`) is deliberately not passed on to the page.
      const listener = (_event: unknown, id: unknown, msg: unknown): void => cb(id as string, msg as SubscriptionMessage)
      ipc.on(EVENT_CHANNEL, listener)
      return () => void ipc.removeListener(EVENT_CHANNEL, listener)
    },
    /** The OS folder dialog; the folder opened (if any) arrives as a `workspace-opened` app command. */
    pickFolder(): Promise<void> {
      return ipc.invoke(PICK_FOLDER_CHANNEL).then(() => undefined)
    },
    onAppCommand(cb: (command: AppCommand) => void): () => void {
      const listener = (_event: unknown, command: unknown): void => cb(command as AppCommand)
      ipc.on(APP_COMMAND_CHANNEL, listener)
      return () => void ipc.removeListener(APP_COMMAND_CHANNEL, listener)
    },
  }
  // Compile-time proof that every bridge call has its method, with the contract's types.
  return api satisfies AgentryCallMethods
}
