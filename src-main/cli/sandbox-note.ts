import type { SandboxState } from '../../src-shared'

/** One line for people (CLI stderr): where bash commands run and what they can reach. */
export function describeSandbox(state: SandboxState): string {
  if (state.mode === 'off') return 'bash sandbox: OFF (turned off in Settings) — commands run with your full permissions; only the permission rules guard them'
  if (state.mode === 'unavailable') return `bash sandbox: none on this machine (${state.reason ?? 'unavailable'}) — only the permission rules guard bash commands`
  const kind = state.mode === 'bwrap' ? 'bubblewrap' : 'macOS Seatbelt'
  return `bash sandbox: ${kind} — writes only in the workspace and a temp folder; network ${state.network ? 'on (a "network" rule allows it)' : 'off'}`
}
