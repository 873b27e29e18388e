import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { debugEnabled, UsageError, type ParsedArgs } from './args'
import { refuseExtraArguments } from './list-commands'
import type { CliIO } from './run'

/** `agentry serve`: the daemon — the UI and its WebSocket bridge on 127.0.0.1, until Ctrl+C — and the local socket. */
export async function serveCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  refuseExtraArguments('serve', args.positionals)
  const port = args.values.port === undefined ? 0 : Number(args.values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port ${args.values.port}: expected a port number (0 = random)`)
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  const debug = debugEnabled(args, io)
  const [{ startDaemon }, { createHost, containProcessFaults }, { serveLocalSocket }] = await Promise.all([import('../daemon'), import('../host'), import('../local-socket')])
  const host = await createHost({ dataDir: io.dataDir, defaultWorkspace: workdir, env: io.env })
  // The daemon serves many clients for a long time: a fault of one piece of work is logged, never the end of all.
  const uncontain = containProcessFaults(host.log)
  const rendererDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'renderer')
  let daemon: Awaited<ReturnType<typeof startDaemon>>
  let local: Awaited<ReturnType<typeof serveLocalSocket>>
  try {
    const token = (args.values.token as string | undefined) ?? (io.env.AGENTRY_TOKEN || undefined)
    daemon = await startDaemon({ api: host.api, port, rendererDir, token, validateOutput: debug, protectPort: (p) => host.protectLocalPort(p) })
    // `agentry run` and the other commands attach here instead of being refused while the daemon holds the data dir.
    local = await serveLocalSocket({ api: host.api, dataDir: io.dataDir, validateOutput: debug })
  } catch (err) {
    uncontain()
    await host.stop()
    if (err instanceof Error && err.message.startsWith('--token')) throw new UsageError(err.message)
    throw err
  }
  io.stdout.write(`Agentry is running at ${daemon.url}\n(data: ${io.dataDir}; press Ctrl+C to stop)\n`)
  await new Promise<void>((resolve) => {
    const stop = () => resolve()
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
  })
  await local.close()
  await daemon.close()
  await host.stop()
  uncontain()
  return 0
}
