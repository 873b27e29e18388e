import { HostError } from '../../src-shared/host-api'
import { createBridgeClient, type BridgeClient } from '../../src-shared/bridge-client'
import { lockOwner } from '../host/lock'
import { connectLocalSocket } from '../local-socket/connect-local-socket'
import type { HostOptions } from '../host'
import type { CliIO } from './run'

/** The host a command talks to — through the bridge calls the UI uses, whichever host it is. */
export interface CliHost {
  api: BridgeClient
  /** true: another process's host (the app, `agentry serve`, another command); false: this process runs one */
  attached: boolean
  /**
   * No live host owns the data dir (its owner died, e.g. `kill -9`): this command only inspects it, read-only, and
   * what the dead host left busy is shown as interrupted.
   */
  hostGone?: boolean
  /** Done with the host: disconnect, or — when this process runs it — stop it once no other command is attached. */
  release(): Promise<void>
}

export interface HostConnectOptions {
  workdir: string
  debug: boolean
  /** for a host of this process's own: the editor that shows the files (`agentry acp`); an attached host has none */
  editorFiles?: HostOptions['editorFiles']
  /** only reads: with no live host, the data dir is read as the dead host left it (see CliHost.hostGone) */
  inspect?: boolean
}

/**
 * How long a command waits for a live host that holds the data dir to open its socket: it may be starting (opening
 * the database, loading the shell grammar), which on a loaded machine takes seconds. A dead holder is taken over at once.
 */
const ATTACH_WAIT_MS = 20_000

/**
 * Attaches to the live host of the data dir when there is one (over its local socket, which only this OS user can
 * open); otherwise starts a host in this process, as the only writer, and serves the same socket so that other
 * commands started meanwhile attach to it. Either way the command gets the same `HostApi`.
 */
export async function connectHost(io: CliIO, o: HostConnectOptions): Promise<CliHost> {
  const end = Date.now() + ATTACH_WAIT_MS
  for (;;) {
    const attached = await attach(io.dataDir)
    if (attached) return attached
    if (o.inspect) {
      // Reading needs no host of our own: starting one would reconcile the data dir and start its queued prompts.
      const owner = lockOwner(io.dataDir)
      if (!owner?.alive) return (await import('./in-process-host')).inspectDataDir(io, o)
      if (Date.now() > end) {
        const { HostLockError } = await import('../host/lock')
        throw new HostLockError(`The Agentry host (pid ${owner.pid}) that holds ${io.dataDir} does not answer on its socket. Wait for it to finish starting, or stop it and try again.`)
      }
      await new Promise((r) => setTimeout(r, 50))
      continue
    }
    // Loaded only here: an attached command never builds the host (the start-up cost of `agentry run`).
    const { startInProcessHost, isHostLockError } = await import('./in-process-host')
    try {
      return await startInProcessHost(io, o)
    } catch (err) {
      // Another host holds the data dir and is still opening its socket, or is stopping: attach, or take over.
      if (!isHostLockError(err) || Date.now() > end) throw err
      await new Promise((r) => setTimeout(r, 50))
    }
  }
}

/**
 * An attached command whose host stopped before answering (it was finishing just as this one connected) may simply
 * start over: it will attach to the next host or run its own. Only for work the host had not accepted yet.
 */
export function hostWentAway(host: CliHost, err: unknown): boolean {
  return host.attached && HostError.isInstance(err) && err.code === 'unavailable'
}

/** How often a command starts over after its host went away under it (see hostWentAway). */
export const ATTEMPTS = 3

async function attach(dataDir: string): Promise<CliHost | undefined> {
  const conn = await connectLocalSocket(dataDir)
  if (!conn) return undefined
  const api = createBridgeClient(conn)
  return {
    api,
    attached: true,
    release: async () => {
      api.close()
      await api.closed
    },
  }
}
