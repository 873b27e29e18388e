import type { SessionRecord } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'
import { HostError } from '../../src-shared/host-api'
import { UsageError, type ParsedArgs } from './args'

const BUSY = new Set(['busy', 'retrying', 'waiting_on_approval', 'waiting_on_user'])

/**
 * The session `agentry run` prompts: a new one in the workspace, or — to go on with a conversation — `--session ID`
 * or `--continue` (the workspace's most recently active conversation, archived ones aside). Going on, `--agent` is
 * this message's agent and `--model` switches the session's model; the events watched start after what the session
 * already had, so the answer printed is this prompt's. A session busy elsewhere (the app) is refused, not queued
 * behind: the answer printed would be the other turn's.
 */
export async function runSession(api: BridgeClient, args: ParsedArgs, workdir: string, explicitWorkdir: boolean): Promise<{ session: SessionRecord; afterSeq: number; agent?: string }> {
  const wanted = typeof args.values.session === 'string' ? args.values.session : undefined
  const agent = args.values.agent as string | undefined
  const model = args.values.model as string | undefined
  if (wanted && args.values.continue) throw new UsageError('use either --session ID or --continue, not both')
  if (!wanted && !args.values.continue) {
    const { session } = await api.calls['sessions.create']({ workspaceRoot: workdir, agent, model })
    return { session, afterSeq: 0 }
  }
  const id = wanted ?? (await lastConversation(api, workdir))
  let got
  try {
    got = await api.calls['sessions.get']({ sessionId: id })
  } catch (err) {
    if (err instanceof HostError && err.code === 'not_found') throw new UsageError(`--session ${id}: no such session (agentry sessions lists them)`)
    throw err
  }
  let session = got.session
  if (explicitWorkdir && session.workspaceRoot !== workdir) throw new UsageError(`--session ${id} belongs to ${session.workspaceRoot}, not --workdir ${workdir}; drop --workdir`)
  if (BUSY.has(session.status)) throw new UsageError(`session ${id} is working right now (${session.status.replaceAll('_', ' ')}); wait for it to finish or stop it, then run again`)
  if (model) session = (await api.calls['sessions.setModel']({ sessionId: id, model })).session
  return { session, afterSeq: got.lastSeq, ...(agent ? { agent } : {}) }
}

async function lastConversation(api: BridgeClient, workdir: string): Promise<string> {
  const { sessions } = await api.calls['sessions.list']({ workspaceRoot: workdir, parentId: null })
  const last = [...sessions].sort((a, b) => b.updatedAt - a.updatedAt)[0]
  if (!last) throw new UsageError(`--continue: no conversation yet in ${workdir}; run without --continue to start one`)
  return last.id
}
