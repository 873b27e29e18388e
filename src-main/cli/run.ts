import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { BridgeClient } from '../../src-shared/bridge-client'
import type { HeadlessRun } from '../../src-shared/bridge'
import { formatConfigIssues } from '../config/format-issues'
import { debugEnabled, parseAllow, parseRunBudget, UsageError, type ParsedArgs } from './args'
import { ATTEMPTS, connectHost, hostWentAway } from './host-connection'
import { keepWasmAtBaseline } from './one-shot-wasm'
import { ProgressView } from './progress'
import { promptOf } from './prompt-input'
import { runSession } from './run-session'
import { describeSandbox } from './sandbox-note'
import { watchRun } from './run-watch'

export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  env: NodeJS.ProcessEnv
  dataDir: string
  /** this process is the command itself (bin/agentry.js), so process-wide tuning is its own business */
  ownProcess?: boolean
}

/** Exit codes after a signal stopped the run (128 + the signal's number, as shells report it). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const

/**
 * `agentry run`: one user turn, headless (ask = deny unless --yes / --allow), waiting for background children too —
 * on the running host when there is one, else on a host of its own. Ctrl-C aborts the run (a second one exits).
 */
export async function runCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const prompt = await promptOf(args.positionals, io)
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  if (!fs.existsSync(workdir) || !fs.statSync(workdir).isDirectory()) throw new UsageError(`--workdir ${workdir}: not a folder`)
  const yes = Boolean(args.values.yes)
  const allow = ((args.values.allow as string[] | undefined) ?? []).map(parseAllow)
  if (yes && allow.length) throw new UsageError('use either --yes or --allow, not both')
  const budget = parseRunBudget(args.values)
  for (let attempt = 1; ; attempt++) {
    const host = await connectHost(io, { workdir, debug: debugEnabled(args, io) })
    if (!host.attached && io.ownProcess) keepWasmAtBaseline()
    const state = { prompted: false }
    try {
      return await runOn(host.api, args, io, { workdir, prompt, headless: { yes, allow: allow.map(({ tool, pattern }) => ({ tool, pattern })), ...(budget ? { budget } : {}) } }, state)
    } catch (err) {
      // The host stopped before it took the prompt: start over on the next one (never run a prompt twice).
      if (!state.prompted && attempt < ATTEMPTS && hostWentAway(host, err)) continue
      throw err
    } finally {
      await host.release()
    }
  }
}

async function runOn(
  api: BridgeClient,
  args: ParsedArgs,
  io: CliIO,
  o: { workdir: string; prompt: string; headless: HeadlessRun },
  state: { prompted: boolean },
): Promise<number> {
  const goingOn = args.values.session !== undefined || Boolean(args.values.continue)
  const settingsOf = async (workspaceRoot: string) => {
    const settings = await api.calls['settings.get']({ workspaceRoot })
    if (settings.configIssues.length) io.stderr.write(`${formatConfigIssues(settings.configIssues)}\n`)
    // A rules file that cannot be used is not fatal (every call then asks, so headless denies), but say so once.
    else for (const e of settings.permissionErrors) io.stderr.write(`agentry: ${e.file}: ${e.reason}\n`)
    return settings
  }
  // A new session's workspace is checked before the session exists: a configuration error (exit 2) leaves none.
  const before = goingOn ? undefined : await settingsOf(o.workdir)
  if (before?.configIssues.length) return 2
  // The host checks the session's model (--model, else the agent's own, else the default) when it creates it: an
  // unknown provider or a bad ref is a configuration error (exit 2) with one line, and no empty session is left.
  const target = await runSession(api, args, o.workdir, args.values.workdir !== undefined)
  const settings = before ?? (await settingsOf(target.session.workspaceRoot))
  if (settings.configIssues.length) return 2
  const sessionId = target.session.id
  const json = Boolean(args.values.json)
  const sandbox = settings.sandbox.state
  // --json: the sandbox state is the first line (`{"type":"sandbox",…}`), before the `{seq, stream, event}` lines.
  if (json) io.stdout.write(`${JSON.stringify({ type: 'sandbox', sandbox })}\n`)
  const progress = json ? undefined : new ProgressView(io.stderr, Boolean(io.stderr.isTTY) && !io.env.NO_COLOR, describeSandbox(sandbox))
  const watch = watchRun(
    api,
    sessionId,
    (e) => {
      if (json) io.stdout.write(`${JSON.stringify(e)}\n`)
      progress?.onEvent(e)
    },
    target.afterSeq,
  )
  // A prompt the host refuses (an unknown /command) throws below and the host may stop before `done` is awaited:
  // its rejection then is not an unhandled one that crashes the process over the real error.
  watch.done.catch(() => undefined)

  // Ctrl-C and SIGTERM (a terminal closing, a process manager): the run is stopped and its session left not busy
  // before this command exits. A second signal leaves at once.
  let interrupted: keyof typeof SIGNAL_EXIT | undefined
  const onSignal = (signal: keyof typeof SIGNAL_EXIT): void => {
    if (interrupted) process.exit(SIGNAL_EXIT[interrupted])
    interrupted = signal
    io.stderr.write(`\nagentry: ${signal === 'SIGINT' ? 'Ctrl-C' : signal}: stopping the run (${signal === 'SIGINT' ? 'Ctrl-C' : 'the signal'} again quits at once)…\n`)
    api.calls['messages.abort']({ sessionId, reason: 'interrupted' }).catch((err: unknown) => io.stderr.write(`agentry: could not stop the run: ${(err as Error).message}\n`))
  }
  const onInt = () => onSignal('SIGINT')
  const onTerm = () => onSignal('SIGTERM')
  process.on('SIGINT', onInt)
  process.on('SIGTERM', onTerm)
  try {
    state.prompted = true
    await api.calls['messages.prompt']({ sessionId, requestId: `cli-${crypto.randomUUID()}`, text: o.prompt, headless: o.headless, ...(target.agent ? { agent: target.agent } : {}) })
    const { final, lastError } = await watch.done
    if (interrupted) {
      io.stderr.write(`agentry: run stopped; session ${sessionId} (agentry show ${sessionId})\n`)
      return SIGNAL_EXIT[interrupted]
    }
    if (!final || final.finishReason === 'error' || final.finishReason === 'aborted' || final.finishReason === 'budget') {
      if (final?.text && !json) io.stdout.write(final.text.endsWith('\n') ? final.text : `${final.text}\n`)
      io.stderr.write(`agentry: ${lastError?.message ?? `the run ${final?.finishReason ?? 'ended without an answer'}`}\n`)
      // A model that is not configured or whose key is refused is a configuration error (2); anything else is a
      // failed run (1).
      return lastError?.code === 'model_config' || lastError?.code === 'model_auth' ? 2 : 1
    }
    // A failed turn may have no text at all; print nothing rather than a blank line.
    if (!json && final.text) io.stdout.write(final.text.endsWith('\n') ? final.text : `${final.text}\n`)
    if (!json) io.stderr.write(`session ${sessionId} (agentry show ${sessionId})\n`)
    return 0
  } finally {
    process.off('SIGINT', onInt)
    process.off('SIGTERM', onTerm)
    watch.dispose()
  }
}
