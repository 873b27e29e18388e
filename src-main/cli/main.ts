import fs from 'node:fs'
import { resolveDataDir } from '../config/data-dir'
import { acpCommand } from './acp'
import { agentsCommand, containersCommand, rulesCommand, sessionsCommand } from './list-commands'
import { debugEnabled, parseCli, USAGE, UsageError, type ParsedArgs } from './args'
import { runCommand, type CliIO } from './run'
import { showCommand } from './show'
import { changesCommand, undoCommand } from './changes'
import { serveCommand } from './serve'
import { trustCommand } from './trust'
import { mcpCommand } from './mcp'
import { skillsCommand } from './skills'
import { commandsCommand } from './commands'
import { agentryVersion } from './version'

/** Entry point shared by `bin/agentry.js` and tests: returns the exit code (0 ok, 1 run failed, 2 usage/config). */
export async function main(argv: string[], io: Partial<CliIO> = {}): Promise<number> {
  const env = io.env ?? process.env
  if (!io.stdout) ignoreClosedPipe(process.stdout)
  const full: CliIO = { stdout: io.stdout ?? process.stdout, stderr: io.stderr ?? process.stderr, env, dataDir: io.dataDir ?? resolveDataDir(env), ownProcess: io.ownProcess }
  let args: ParsedArgs | undefined
  try {
    args = parseCli(argv)
    if (args.values.help) {
      full.stdout.write(`${USAGE}\n`)
      return 0
    }
    if (args.command === 'version') {
      full.stdout.write(`agentry ${agentryVersion()}\n`)
      return 0
    }
    checkDataDir(full.dataDir, env)
    switch (args.command) {
      case 'run':
        return await runCommand(args, full)
      case 'agents':
        return await agentsCommand(args, full)
      case 'skills':
        return await skillsCommand(args, full)
      case 'commands':
        return await commandsCommand(args, full)
      case 'sessions':
        return await sessionsCommand(args, full)
      case 'show':
        return await showCommand(args, full)
      case 'changes':
        return await changesCommand(args, full)
      case 'undo':
      case 'redo':
        return await undoCommand(args, full, args.command)
      case 'serve':
        return await serveCommand(args, full)
      case 'trust':
        return await trustCommand(args, full)
      case 'rules':
        return await rulesCommand(args, full)
      case 'containers':
        return await containersCommand(args, full)
      case 'acp':
        return await acpCommand(args, full)
      case 'mcp':
        return await mcpCommand(args, full)
      default:
        throw new UsageError(`Unknown command ${args.command}`)
    }
  } catch (err) {
    return reportError(err, full, debugEnabled(args, full))
  }
}

/** The data dir must be a folder (or not exist yet): a file there is a configuration error, said before any host. */
function checkDataDir(dataDir: string, env: NodeJS.ProcessEnv): void {
  let reason: string | undefined
  try {
    if (!fs.statSync(dataDir).isDirectory()) reason = 'it is a file, not a folder'
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOTDIR') reason = 'a part of that path is a file, not a folder'
    else if (code !== 'ENOENT') reason = (err as Error).message
  }
  if (!reason) return
  const what = env.AGENTRY_HOME?.trim() ? `AGENTRY_HOME=${dataDir}` : `The data dir ${dataDir}`
  throw new UsageError(`agentry: ${what} cannot be used: ${reason}. Point AGENTRY_HOME at a folder (it is created if missing), or unset it for the default.`)
}

/**
 * `agentry sessions | head` closes the pipe early. Without a listener the EPIPE is an uncaught exception with a
 * stack trace; with it, the rest of the output is simply dropped and a run still finishes and saves its session.
 */
function ignoreClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return
    throw err
  })
}

const CONFIG_ERRORS = new Set(['UsageError', 'ModelConfigError', 'ModelAuthError', 'HostLockError', 'StoreError', 'HostError', 'ListenError'])
/** A host that went away or failed inside is a failed run (1), not something the user's input or setup caused. */
const FAILED_HOST = new Set(['unavailable', 'internal'])

function reportError(err: unknown, io: CliIO, debug: boolean): number {
  const e = err instanceof Error ? err : new Error(String(err))
  if (e.name === 'UsageError') {
    io.stderr.write(`${e.message}\n`)
    return 2
  }
  io.stderr.write(`agentry: ${e.message}\n`)
  const configError = CONFIG_ERRORS.has(e.name) && !FAILED_HOST.has(String((e as { code?: unknown }).code))
  if (!configError && e.name !== 'ModelAuthError' && debug) io.stderr.write(`${e.stack}\n`)
  return configError ? 2 : 1
}
