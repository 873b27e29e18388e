import type { AvailableCommand, SessionUpdate } from '@agentclientprotocol/sdk/unstable'
import type { CommandEntry } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'

/** Built-ins that are actions of the Agentry app (a new session, a picker): an editor has its own, so they are not offered. */
const APP_ONLY = new Set(['clear', 'agents', 'model'])

/** The commands an editor may offer for a session: a prompt `/name args` runs each on the host. */
export function availableCommands(commands: CommandEntry[]): AvailableCommand[] {
  return commands
    .filter((c) => !(c.source === 'builtin' && APP_ONLY.has(c.name)))
    .map((c) => ({ name: c.name, description: c.description, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}) }))
}

/**
 * `available_commands_update` for a session just opened. Sent after the response that names the session (an editor
 * drops updates for a session it does not know yet); a failure to list is logged, the session works without it.
 */
export function announceCommands(api: BridgeClient, sessionId: string, workdir: string, notify: (sessionId: string, u: SessionUpdate) => void, log: (m: string) => void): void {
  setImmediate(() => {
    api.calls['commands.list']({ workspaceRoot: workdir }).then(
      ({ commands }) => notify(sessionId, { sessionUpdate: 'available_commands_update', availableCommands: availableCommands(commands) }),
      (err: unknown) => log(`session ${sessionId}: could not list commands: ${err instanceof Error ? err.message : String(err)}`),
    )
  })
}
