/** What a sandboxed bash command may do. Built per call by the runtime from the person's settings and rules. */
export interface SandboxPolicy {
  /** the person's setting (Settings → Sandbox, `sandbox.enabled` in config.yaml); false runs commands unconfined */
  enabled: boolean
  /** commands may use the network (a `network: allow` rule); otherwise they get no network at all */
  network: boolean
  /** absolute paths that stay read-only inside the sandbox (protected configuration) */
  readOnly: string[]
  /** absolute paths that are empty inside the sandbox (the data dir: keys, database, other sessions' output) */
  hidden: string[]
  /** absolute folders inside a hidden one that commands may still read, never write (the person's skills in the data dir) */
  shown?: string[]
  /** absolute folders the person made writable besides the workspace (`sandbox.writable`) */
  writable: string[]
}

/** The policy when no runtime supplied one (tools run directly, e.g. in tests): sandboxed, no network. */
export const DEFAULT_SANDBOX_POLICY: SandboxPolicy = { enabled: true, network: false, readOnly: [], hidden: [], writable: [] }
