import { z } from 'zod'

/** A problem in a command file the loader recovered from (or that kept the file from loading), with where it is. */
export const CommandProblem = z.object({
  file: z.string(),
  /** 1-based line in the file, when the problem has one */
  line: z.number().int().optional(),
  field: z.string().optional(),
  reason: z.string(),
})
export type CommandProblem = z.infer<typeof CommandProblem>

/**
 * Where a command comes from: Agentry's built-ins, the person's own folders (always offered) or the workspace's
 * (offered once the workspace is trusted).
 */
export const CommandSource = z.enum(['builtin', 'person', 'workspace', 'skill'])
export type CommandSource = z.infer<typeof CommandSource>

/** One slash command (issue 27) as `commands.list`, the composer's completion and ACP show it. */
export const CommandEntry = z.object({
  /** without the slash; a subfolder namespaces it: `frontend/component.md` → `frontend:component` */
  name: z.string(),
  description: z.string(),
  /** `argument-hint` as written (`[file] [message]`) */
  argumentHint: z.string().optional(),
  source: CommandSource,
  /** the command's file (absolute); absent for a built-in */
  file: z.string().optional(),
  /** `agent:`: the agent that runs the command's turn */
  agent: z.string().optional(),
  /** `model:`: the model of the command's turn */
  model: z.string().optional(),
  /** `subtask: true`: runs as a task of its agent from the current session */
  subtask: z.boolean().optional(),
  /** `allowed-tools` as written: listed, never a grant (see README) */
  allowedTools: z.array(z.string()),
  warnings: z.array(CommandProblem),
})
export type CommandEntry = z.infer<typeof CommandEntry>

export const CommandsListing = z.object({
  commands: z.array(CommandEntry),
  /** command files that could not be loaded, each with its reason */
  errors: z.array(CommandProblem),
  /** workspace command files not offered because the workspace is not trusted (0 when trusted) */
  untrusted: z.number().int(),
})
export type CommandsListing = z.infer<typeof CommandsListing>

/** `metadata.command` of the user message a command became: what the person typed. */
export const CommandUse = z.object({ name: z.string(), args: z.string() })
export type CommandUse = z.infer<typeof CommandUse>

/** `/name rest`: a prompt that calls a command. A name holds no slash, so a path such as `/usr/bin` is not one. */
export function parseCommandCall(text: string): CommandUse | undefined {
  const m = /^\/([A-Za-z0-9_][\w.:-]*)(?:[ \t\r\n]+([\s\S]*))?$/.exec(text)
  return m ? { name: m[1], args: (m[2] ?? '').trim() } : undefined
}
