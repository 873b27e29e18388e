import fs from 'node:fs'
import path from 'node:path'
import { formatConfigIssues } from '../config'
import { createHost } from '../host'
import { parseAllow, UsageError, type ParsedArgs } from './args'
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
  if (!prompt) throw new UsageError('agentry run needs a PROMPT, e.g. agentry run "summarize this project"')
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
    const created = await host.api.calls['sessions.create']({
      workspaceRoot: workdir,
      agent: args.values.agent as string | undefined,
      model: args.values.model as string | undefined,
    })
    const sessionId = created.session.id
    const json = Boolean(args.values.json)
    const progress = !json && io.stderr.isTTY ? new ProgressView(io.stderr) : undefined
    let final: { text: string; finishReason: string } | undefined
    let lastError: string | undefined
    const unsubscribe = host.api.subscribe({ sessionId, afterSeq: 0 }, (m) => {
      if (m.kind !== 'event') return
      if (json) io.stdout.write(`${JSON.stringify(m.event)}\n`)
      progress?.onEvent(m.event)
      const e = m.event.event
      if (e.type === 'turn_complete' && e.sessionId === sessionId) final = { text: e.text, finishReason: e.finishReason }
      if (e.type === 'error' && e.sessionId === sessionId) lastError = e.message
    })
    await host.api.calls['messages.prompt']({ sessionId, requestId: `cli-${Date.now()}`, text: prompt })
    // A background child's result starts another parent turn: wait until nothing is running at all.
    do {
      await host.runner.idle()
      await host.subagents.settle()
    } while (host.runner.isRunning(sessionId))
    host.store.flush()
    unsubscribe()
    progress?.done()
    if (!final) {
      io.stderr.write(`agentry: the run ended without an answer${lastError ? `: ${lastError}` : ''}\n`)
      return 1
    }
    if (!json) io.stdout.write(final.text.endsWith('\n') ? final.text : `${final.text}\n`)
    if (final.finishReason === 'error' || final.finishReason === 'aborted') {
      io.stderr.write(`agentry: run ${final.finishReason}${lastError ? `: ${lastError}` : ''}\n`)
      return 1
    }
    if (!json) io.stderr.write(progress ? `session ${sessionId}\n` : '')
    return 0
  } finally {
    await host.stop()
  }
}
