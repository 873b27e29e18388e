import fs from 'node:fs'
import path from 'node:path'
import { Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { AcpServer } from '../acp'
import { debugEnabled, UsageError, type ParsedArgs } from './args'
import { connectHost } from './host-connection'
import type { CliIO } from './run'

/**
 * `agentry acp`: an Agent Client Protocol agent for editors (Zed, JetBrains, Neovim, Emacs), speaking JSON-RPC on
 * stdin/stdout until the editor closes it. It works on the data dir's host like every command: attached to the app,
 * `agentry serve` or another command when one runs, else on a host of its own (which other commands attach to).
 * stdout carries only the protocol: every diagnostic goes to stderr.
 */
export async function acpCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  if (!fs.existsSync(workdir) || !fs.statSync(workdir).isDirectory()) throw new UsageError(`--workdir ${workdir}: not a folder`)
  if (args.positionals.length) throw new UsageError(`agentry acp takes no arguments (got ${args.positionals.join(' ')}); editors start it as is`)
  keepStdoutForProtocol()
  const log = (message: string): void => void io.stderr.write(`agentry acp: ${message}\n`)
  // Whatever the editor sends, this process answers and keeps going: an unexpected failure is logged, not fatal.
  process.on('unhandledRejection', (err) => log(`unexpected: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`))
  const { serveAcp } = await import('../acp')
  const debug = debugEnabled(args, io)
  const server: AcpServer = serveAcp({
    input: Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
    output: Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    log,
    version: packageVersion(),
    connectHost: async () => {
      const host = await connectHost(io, { workdir, debug, editorFiles: (root) => server.editorFiles(root) })
      if (host.attached) log('attached to the running Agentry host (files are read from disk, not through the editor)')
      return host
    },
  })
  server.warmUp()
  let signals = 0
  const stop = (): void => {
    // A second signal: leave now (the host's own cleanup runs at the next start).
    if (++signals > 1) process.exit(130)
    void server.close()
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  try {
    await server.closed
  } finally {
    await server.close()
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
  }
  return 0
}

/** Code that logs with console.log (ours or a library's) must not corrupt the protocol: it goes to stderr. */
function keepStdoutForProtocol(): void {
  const toStderr = (...a: unknown[]): void => console.error(...a)
  console.log = toStderr
  console.info = toStderr
  console.debug = toStderr
}

function packageVersion(): string {
  // src-main/cli/acp.ts and out/cli/agentry.mjs are both two folders below the package.
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json')
  try {
    const version = (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown }).version
    return typeof version === 'string' ? version : '0.0.0'
  } catch (err) {
    process.stderr.write(`agentry acp: could not read the version from ${file}: ${(err as Error).message}\n`)
    return '0.0.0'
  }
}
