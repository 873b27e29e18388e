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
 * `available_commands_update` for the sessions of one ACP connection, sent when a session opens and again whenever a
 * later look finds a different list (a command file added, edited or removed). The look is `commands.list` — a
 * readdir of the command folders and a stat per file; only changed files are parsed again — made when a session opens
 * and when each of its prompts ends, so the editor's completion is fresh by the time the person can type the next one.
 * A failure to list is logged: the session works without it.
 */
export class CommandAnnouncer {
  /** per session: the list last sent (as JSON), and the look in progress (looks of one session never overlap) */
  private readonly sent = new Map<string, string>()
  private readonly looks = new Map<string, Promise<void>>()

  constructor(
    private readonly notify: (sessionId: string, u: SessionUpdate) => void,
    private readonly log: (m: string) => void,
  ) {}

  /**
   * A session just opened (new, loaded or resumed): its list is sent whatever was sent before. Sent after the
   * response that names the session (an editor drops updates for a session it does not know yet).
   */
  opened(api: BridgeClient, sessionId: string, workdir: string): void {
    this.sent.delete(sessionId)
    setImmediate(() => void this.refresh(async () => api, sessionId, workdir))
  }

  /** Look again; send the list only if it differs from the one this session last received. */
  refresh(api: () => Promise<BridgeClient>, sessionId: string, workdir: string): Promise<void> {
    const look = (this.looks.get(sessionId) ?? Promise.resolve()).then(async () => {
      try {
        const { commands } = await (await api()).calls['commands.list']({ workspaceRoot: workdir })
        const list = availableCommands(commands)
        const key = JSON.stringify(list)
        if (this.sent.get(sessionId) === key) return
        this.sent.set(sessionId, key)
        this.notify(sessionId, { sessionUpdate: 'available_commands_update', availableCommands: list })
      } catch (err) {
        this.log(`session ${sessionId}: could not list commands: ${err instanceof Error ? err.message : String(err)}`)
      }
    })
    this.looks.set(sessionId, look)
    void look.then(() => this.looks.get(sessionId) === look && this.looks.delete(sessionId))
    return look
  }

  /** The session closed: nothing more is sent for it. */
  forget(sessionId: string): void {
    this.sent.delete(sessionId)
  }
}
