import { z } from 'zod'
import { lazy } from './lazy'

/** The Claude Code hook events Agentry runs (issue 27). Others Claude Code knows are reported, never silently dropped. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
] as const
export type HookEventName = (typeof HOOK_EVENTS)[number]

/** One hook as Settings lists it: where it came from and whether it runs. */
export const HookInfo = lazy(() =>
  z.object({
    event: z.string(),
    /** '' = every tool (or every source / agent type) */
    matcher: z.string(),
    command: z.string(),
    timeoutSeconds: z.number(),
    /** the file it was read from */
    source: z.string(),
    /** false: a workspace hook waiting for the person's trust */
    active: z.boolean(),
  }),
)
export type HookInfo = z.infer<typeof HookInfo>

/** A part of a hooks configuration that could not be used: which file, which field, and the fix. */
export const HookProblem = lazy(() => z.object({ file: z.string(), path: z.string(), reason: z.string() }))
export type HookProblem = z.infer<typeof HookProblem>

export const HooksListing = lazy(() => z.object({ hooks: z.array(HookInfo), problems: z.array(HookProblem) }))
export type HooksListing = z.infer<typeof HooksListing>
