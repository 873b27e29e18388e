import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { SandboxState } from '../../src-shared'
import { bwrapArgs } from './bwrap'
import { detectSandbox, type SandboxSupport } from './detect'
import { claimPlaceholder, releasePlaceholder, type PlaceholderKind } from './placeholders'
import type { SandboxPolicy } from './policy'
import { seatbeltProfile } from './seatbelt'
import { watchdogCommand } from './watchdog'
import { isMissing } from '../files'

/** How to start one bash command, confined as far as this machine allows. */
export interface PreparedCommand {
  file: string
  args: string[]
  /** spawn with stdin as a pipe and keep it open: the watchdog ends the command when it closes */
  watchdog: boolean
  env: NodeJS.ProcessEnv
  state: SandboxState
  /** remove the command's temp folder and placeholders; call once it has exited */
  cleanup(): void
}

/**
 * Wraps `bash -c command` in bubblewrap (Linux) or sandbox-exec (macOS) when the policy enables the sandbox and
 * the machine has one; otherwise runs it plainly under the watchdog. Either way the command cannot outlive the
 * host: bubblewrap dies with its parent (and its pid namespace with it), the watchdog kills the process group.
 */
/** How commands run under these settings on this machine (the tool card badge, the CLI line, Settings). */
export function sandboxState(enabled: boolean, network: boolean, support: SandboxSupport): SandboxState {
  if (!enabled) return { mode: 'off', network: true, reason: 'the sandbox is turned off in Settings' }
  if (support.kind === 'none') return { mode: 'unavailable', network: true, reason: support.reason }
  return { mode: support.kind, network }
}

export async function prepareCommand(command: string, o: { workdir: string; policy: SandboxPolicy; env: NodeJS.ProcessEnv }): Promise<PreparedCommand> {
  const support: SandboxSupport = o.policy.enabled ? await detectSandbox(o.env) : { kind: 'none', reason: 'off' }
  const state = sandboxState(o.policy.enabled, o.policy.network, support)
  if (support.kind === 'none') return { ...watchdogCommand('bash', ['-c', command]), watchdog: true, env: o.env, state, cleanup: () => {} }

  const runDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-bash-')))
  fs.mkdirSync(path.join(runDir, 'tmp'))
  fs.mkdirSync(path.join(runDir, 'empty'), { mode: 0o555 })
  fs.writeFileSync(path.join(runDir, 'empty-file'), '', { mode: 0o444 })
  const claimed: { path: string; kind: PlaceholderKind }[] = []
  const cleanup = () => {
    for (const p of claimed.splice(0)) releasePlaceholder(p.path)
    fs.rmSync(runDir, { recursive: true, force: true })
  }
  try {
    if (support.kind === 'seatbelt') {
      const tmp = path.join(runDir, 'tmp')
      const profile = seatbeltProfile({ workdir: o.workdir, tmp, policy: o.policy })
      return { ...watchdogCommand(support.path, ['-p', profile, 'bash', '-c', command]), watchdog: true, env: { ...o.env, TMPDIR: tmp }, state, cleanup }
    }
    for (const p of o.policy.readOnly) {
      if (!placeholderEligible(p, o.workdir)) continue
      const kind = claimPlaceholder(p)
      if (kind) claimed.push({ path: p, kind })
    }
    const args = bwrapArgs({ workdir: o.workdir, runDir, policy: o.policy, placeholders: claimed }, command)
    return { file: support.path, args, watchdog: false, env: o.env, state, cleanup }
  } catch (err) {
    cleanup()
    throw err
  }
}

/** A missing protected name right in the workspace (or in its .git folder) gets a placeholder mount. */
function placeholderEligible(p: string, workdir: string): boolean {
  const parent = path.dirname(p)
  if (parent !== workdir && parent !== path.join(workdir, '.git')) return false
  try {
    return fs.statSync(parent).isDirectory()
  } catch (err) {
    if (isMissing(err)) return false
    throw err
  }
}

