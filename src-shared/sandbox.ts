import { z } from 'zod'
import { lazy } from './lazy'

/** `sandbox:` in the person's config.yaml (a workspace's config.yaml cannot change it). */
export const SandboxSettings = lazy(() =>
  z
    .object({
      /** run bash commands in the OS sandbox where one exists (bubblewrap on Linux, Seatbelt on macOS) */
      enabled: z.boolean().default(true),
      /** absolute folders bash may write to besides the workspace and its temp dir (e.g. a build cache) */
      writable: z.array(z.string().regex(/^(\/|~\/)/, 'must be an absolute path (or start with ~/)')).default([]),
      /**
       * read-only commands (`ls`, `cat`, `git status`, `rg` …, judged by the parser) run without asking where the rules
       * would only ask by default; false asks for them as for any command
       */
      readOnlyAutoAllow: z.boolean().default(true),
    })
    .strict()
)
export type SandboxSettings = z.infer<typeof SandboxSettings>

/**
 * How a bash command ran, as recorded in its tool part's metadata (`metadata.sandbox`) and shown on the tool card:
 * `bwrap`/`seatbelt` = confined (writes only to the workspace and a temp dir, protected paths read-only);
 * `off` = the person turned the sandbox off; `unavailable` = this machine has none (`reason` says why).
 */
export const SandboxState = lazy(() =>
  z.object({
    /** `container`: in the child's own container (isolation: container; `reason` names it) */
    mode: z.enum(['bwrap', 'seatbelt', 'off', 'unavailable', 'container']),
    network: z.boolean(),
    reason: z.string().optional(),
  })
)
export type SandboxState = z.infer<typeof SandboxState>
