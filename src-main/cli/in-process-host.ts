import { createBridgeClient } from '../../src-shared/bridge-client'
import { createConnectionPair } from '../../src-shared/bridge-memory'
import { serveConnection } from '../bridge'
import { createHost, HostLockError } from '../host'
import { serveLocalSocket, type LocalSocketServer } from '../local-socket'
import type { CliHost, HostConnectOptions } from './host-connection'
import type { CliIO } from './run'

export function isHostLockError(err: unknown): boolean {
  return err instanceof HostLockError
}

/**
 * A host of this command's own, reached through the same bridge client as an attached one (an in-memory pair with
 * the host's dispatch behind it), and served on the local socket for other commands. When the command is done the
 * host stays up until the commands attached to it have finished, then stops.
 */
export async function startInProcessHost(io: CliIO, o: HostConnectOptions): Promise<CliHost> {
  const host = await createHost({ dataDir: io.dataDir, defaultWorkspace: o.workdir, env: io.env, editorFiles: o.editorFiles })
  let server: LocalSocketServer | undefined
  try {
    server = await serveLocalSocket({ api: host.api, dataDir: io.dataDir, validateOutput: o.debug })
  } catch (err) {
    // This command still works; only other commands cannot attach to it and will say the data dir is in use.
    io.stderr.write(`agentry: other commands cannot attach while this one runs: ${err instanceof Error ? err.message : String(err)}\n`)
  }
  const [client, hostEnd] = createConnectionPair()
  serveConnection(host.api, hostEnd, { validateOutput: o.debug })
  const api = createBridgeClient(client)
  let released: Promise<void> | undefined
  return {
    api,
    attached: false,
    release() {
      released ??= (async () => {
        api.close()
        // No new command attaches from here on (they will find the data dir free once this host stops); the ones
        // already attached, or queued to attach, finish first.
        await server?.stopAccepting()
        if (server && server.clients > 0) {
          io.stderr.write(`agentry: waiting for ${server.clients} attached command(s) to finish before stopping the host…\n`)
          await server.whenNoClients()
        }
        await server?.close()
        await host.stop()
      })()
      return released
    },
  }
}

/**
 * A data dir whose host is gone, inspected read-only: no lock, no reconciliation, nothing started — the sessions as
 * the dead host left them (the caller shows its busy ones as interrupted). The next real host cleans them up.
 */
export async function inspectDataDir(io: CliIO, o: { workdir: string; debug: boolean }): Promise<CliHost> {
  const host = await createHost({ dataDir: io.dataDir, defaultWorkspace: o.workdir, env: io.env, readOnly: true })
  const [client, hostEnd] = createConnectionPair()
  serveConnection(host.api, hostEnd, { validateOutput: o.debug })
  const api = createBridgeClient(client)
  return {
    api,
    attached: false,
    hostGone: true,
    async release() {
      api.close()
      await host.stop()
    },
  }
}
