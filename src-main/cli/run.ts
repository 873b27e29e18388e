import fs from 'node:fs'
import path from 'node:path'
import { formatConfigIssues } from '../config'
import { createHost } from '../host'
import { createFileKeyStore, defaultModelRef, parseModelRef, resolveModel } from '../models'
import { describeSandbox } from '../sandbox'
import { parseAllow, UsageError, USAGE, type ParsedArgs } from './args'
import { ProgressView } from './progress'

export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
  env: NodeJS.ProcessEnv
  dataDir: string
}

/** `agentry run`: one user turn, headless (ask = deny unless --yes / --allow), waiting for background children too. */
export async function runCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const prompt = args.positionals.join(' ').trim()
  if (!prompt) throw new UsageError(`agentry run needs a PROMPT, e.g. agentry run "summarize this project"\n${USAGE}`)
  const workdir = path.resolve(String(args.values.workdir ?? process.cwd()))
  if (!fs.existsSync(workdir) || !fs.statSync(workdir).isDirectory()) throw new UsageError(`--workdir ${workdir}: not a folder`)
  const yes = Boolean(args.values.yes)
  const allow = ((args.values.allow as string[] | undefined) ?? []).map(parseAllow)
  if (yes && allow.length) throw new UsageError('use either --yes or --allow, not both')

  const host = await createHost({ dataDir: io.dataDir, headless: true, grants: { yes, rules: allow }, defaultWorkspace: workdir, env: io.env })
  try {
    const loaded = host.config(workdir)
    if (loaded.issues.length) {
      io.stderr.write(`${formatConfigIssues(loaded.issues)}\n`)
      return 2
    }
    // A rules file that cannot be used is not fatal (every call then asks, so headless denies), but say so once.
    for (const e of host.staticRules(workdir).errors) io.stderr.write(`agentry: ${e.file}: ${e.reason}\n`)
    // Resolve the model before a session exists: an unknown provider or bad ref is a config error (exit 2) with
    // one line, not a failed run that leaves an empty session behind. Resolution is lazy, so nothing is loaded.
    const modelArg = args.values.model as string | undefined
    const modelRef = modelArg ? parseModelRef(modelArg) : defaultModelRef(loaded.config)
    resolveModel(modelRef, { config: loaded.config, configDir: io.dataDir, keys: createFileKeyStore(io.dataDir), env: io.env, agentName: String(args.values.agent ?? 'build'), keyLimits: loaded.keyLimits })
    const created = await host.api.calls['sessions.create']({
      workspaceRoot: workdir,
      agent: args.values.agent as string | undefined,
      model: modelArg,
    })
    const sessionId = created.session.id
    const json = Boolean(args.values.json)
    const sandbox = await host.sandboxStatus(workdir)
    // --json: the sandbox state is the first line (`{"type":"sandbox",…}`), before the `{seq, stream, event}` lines.
    if (json) io.stdout.write(`${JSON.stringify({ type: 'sandbox', sandbox })}\n`)
    const progress = json ? undefined : new ProgressView(io.stderr, Boolean(io.stderr.isTTY) && !io.env.NO_COLOR, describeSandbox(sandbox))
    let final: { text: string; finishReason: string } | undefined
    let lastError: { code: string; message: string } | undefined
    const unsubscribe = host.api.subscribe({ sessionId, afterSeq: 0 }, (m) => {
      if (m.kind !== 'event') return
      if (json) io.stdout.write(`${JSON.stringify(m.event)}\n`)
      progress?.onEvent(m.event)
      const e = m.event.event
      if (e.type === 'turn_complete' && e.sessionId === sessionId) final = { text: e.text, finishReason: e.finishReason }
      if (e.type === 'error' && e.sessionId === sessionId) lastError = { code: e.code, message: e.message }
    })
    await host.api.calls['messages.prompt']({ sessionId, requestId: `cli-${Date.now()}`, text: prompt })
    // A background child's result starts another parent turn: wait until nothing is running at all.
    do {
      await host.runner.idle()
      await host.subagents.settle()
    } while (host.runner.isRunning(sessionId))
    host.store.flush()
    unsubscribe()
    if (!final || final.finishReason === 'error' || final.finishReason === 'aborted') {
      if (final?.text && !json) io.stdout.write(final.text.endsWith('\n') ? final.text : `${final.text}\n`)
      io.stderr.write(`agentry: ${lastError?.message ?? `the run ${final?.finishReason ?? 'ended without an answer'}`}\n`)
      // A model that is not configured is a configuration error (2); anything else is a failed run (1).
      return lastError?.code === 'model_config' ? 2 : 1
    }
    // A failed turn may have no text at all; print nothing rather than a blank line.
    if (!json && final.text) io.stdout.write(final.text.endsWith('\n') ? final.text : `${final.text}\n`)
    if (!json) io.stderr.write(`session ${sessionId} (agentry show ${sessionId})\n`)
    return 0
  } finally {
    await host.stop()
  }
}
