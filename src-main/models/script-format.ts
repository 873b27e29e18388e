import fs from 'node:fs'
import { z } from 'zod'
import { describeZodIssues, problemsLine } from '../../src-shared'
import { parseYamlText } from '../config'
import { ModelConfigError } from './errors'

/** The YAML format the `script` provider replays. Documented in SCRIPT.md; keep the two in step. */

const Usage = z.object({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }).strict()

const ToolCall = z
  .object({
    name: z.string().min(1),
    input: z.record(z.string(), z.unknown()).default({}),
    /** optional fixed tool-call id (default: a fresh unique id) */
    id: z.string().min(1).optional(),
  })
  .strict()

const ScriptedError = z
  .object({
    status: z.number().int().min(100).max(599),
    message: z.string().default('scripted error'),
    /** seconds, sent as the Retry-After header of the simulated response */
    retryAfter: z.number().nonnegative().optional(),
  })
  .strict()

export const ScriptReply = z
  .object({
    match: z.string().min(1).optional(),
    step: z.number().int().min(1).optional(),
    repeat: z.boolean().optional(),
    text: z.string().optional(),
    reasoning: z.string().optional(),
    tools: z.array(ToolCall).optional(),
    error: ScriptedError.optional(),
    finish: z.enum(['stop', 'length', 'tool-calls', 'content-filter', 'other']).optional(),
    delayMs: z.number().nonnegative().optional(),
    chunkDelayMs: z.number().nonnegative().optional(),
    usage: Usage.optional(),
  })
  .strict()
  .refine((r) => r.text !== undefined || r.reasoning !== undefined || r.tools !== undefined || r.error !== undefined, {
    message: 'a reply needs at least one of text, reasoning, tools or error',
  })
export type ScriptReply = z.infer<typeof ScriptReply>

export const ScriptFile = z
  .object({
    agents: z.record(z.string(), z.array(ScriptReply)),
    usage: Usage.optional(),
  })
  .strict()
export type ScriptFile = z.infer<typeof ScriptFile>

/** Scripts replay whole conversations, so they may be longer than config files. */
const MAX_SCRIPT_CHARS = 8 * 1024 * 1024

/** Parses script text; every problem is reported as `script <file>: <field path>: <reason>`. */
export function parseScript(text: string, file: string): ScriptFile {
  // The bounded parser: a huge file or an alias bomb is refused with its line, never parsed into memory.
  const yaml = parseYamlText(text, { maxChars: MAX_SCRIPT_CHARS })
  if (!yaml.ok) throw new ModelConfigError(`script ${file}: ${yaml.errors[0].reason}`)
  const result = ScriptFile.safeParse(yaml.value)
  if (!result.success) {
    const problems = problemsLine(describeZodIssues(result.error.issues, yaml.value, ScriptFile), { max: 5 })
    throw new ModelConfigError(`script ${file}: ${problems}. See src-main/models/SCRIPT.md for the format.`)
  }
  return result.data
}

const cache = new Map<string, { mtimeMs: number; size: number; script: ScriptFile }>()

/** Loads and validates a script file, re-reading it only when it changed on disk. */
export function loadScript(file: string): ScriptFile {
  let stat: fs.Stats
  try {
    stat = fs.statSync(file)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unknown error'
    throw new ModelConfigError(
      `script ${file}: cannot read the file (${code}). Point AGENTRY_SCRIPT or providers.<name>.script at an existing YAML file.`,
      { cause: e },
    )
  }
  const cached = cache.get(file)
  if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.script
  if (stat.size > MAX_SCRIPT_CHARS) {
    throw new ModelConfigError(`script ${file}: the file is ${(stat.size / (1024 * 1024)).toFixed(1)} MiB, more than the ${MAX_SCRIPT_CHARS / (1024 * 1024)} MiB allowed; shorten it`)
  }
  const script = parseScript(fs.readFileSync(file, 'utf8'), file)
  cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, script })
  return script
}
