import { performance } from 'node:perf_hooks'
import type { JSONSchema7 } from '@ai-sdk/provider'
import { z } from 'zod'
import { describeZodIssues, problemsLine } from '../../src-shared'
import { abortReasonOf, ToolError, type ToolContext, type ToolDef, type ToolResult } from './tool'
import { DEFAULT_MAX_OUTPUT_CHARS, truncateOutput } from './truncate'

export interface ToolRunResult {
  ok: boolean
  output: string
  metadata?: Record<string, unknown>
  durationMs: number
}

/**
 * How long a tool may take to clean up after an abort before runTool gives up waiting.
 * bash needs up to 2 s (SIGTERM, then SIGKILL) to take its process group down.
 */
const ABORT_GRACE_MS = 3_000
const MAX_ERROR_CHARS = 4_000

const schemaCache = new WeakMap<ToolDef, JSONSchema7>()

/** The JSON schema the model sees for a tool's arguments (input side: defaulted fields are optional). */
export function toolJsonSchema(def: ToolDef): JSONSchema7 {
  if (def.inputSchema) return def.inputSchema
  const cached = schemaCache.get(def)
  if (cached) return cached
  const { $schema: _ignored, ...schema } = z.toJSONSchema(def.parameters, { io: 'input' }) as Record<string, unknown>
  const result = schema as JSONSchema7
  schemaCache.set(def, result)
  return result
}

/** `{path, old_string, new_string, replace_all?}` — the shape to send, from the JSON schema. */
export function argumentShape(def: ToolDef): string | null {
  const schema = toolJsonSchema(def)
  if (schema.type !== 'object' || !schema.properties) return null
  const required = new Set(schema.required ?? [])
  const keys = Object.keys(schema.properties).map((k) => (required.has(k) ? k : `${k}?`))
  return `{${keys.join(', ')}}`
}

export function formatValidationError(def: ToolDef, error: z.ZodError, input: unknown): string {
  const problems = describeZodIssues(error.issues, input, def.parameters)
  const shape = argumentShape(def)
  return `Invalid arguments for ${def.name}: ${problemsLine(problems, { top: 'arguments' })}.${shape ? ` Send ${shape}.` : ''}`
}

function errorMessage(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e)
  return msg.length > MAX_ERROR_CHARS ? `${msg.slice(0, MAX_ERROR_CHARS)}… [error message truncated]` : msg
}

/** "by the user" for the person's Stop; otherwise the real reason (a subagent's timeout, its parent's abort). */
function abortedBy(signal: AbortSignal): string {
  const reason = abortReasonOf(signal)
  return reason === undefined || reason === 'aborted by user' ? 'by the user' : `(${reason})`
}

const ABORTED = Symbol('aborted')

/** Resolves to ABORTED once `signal` fires and the grace period passes; never rejects. */
function afterAbort(signal: AbortSignal, graceMs: number): { promise: Promise<typeof ABORTED>; dispose(): void } {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const promise = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve(ABORTED), graceMs)
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  return {
    promise,
    dispose() {
      if (timer) clearTimeout(timer)
      if (onAbort) signal.removeEventListener('abort', onAbort)
    },
  }
}

/**
 * The single wrapper every tool call goes through: validate → authorize → execute →
 * truncate. It never throws; every failure becomes `ok: false` with a message the model can
 * act on.
 */
export async function runTool(def: ToolDef, rawInput: unknown, ctx: ToolContext): Promise<ToolRunResult> {
  const started = performance.now()
  const done = (ok: boolean, output: string, metadata?: Record<string, unknown>): ToolRunResult => ({
    ok,
    output,
    ...(metadata ? { metadata } : {}),
    durationMs: Math.round(performance.now() - started),
  })
  const aborted = () => done(false, `Aborted: ${def.name} was cancelled ${abortedBy(ctx.signal)}.`, { aborted: true })

  if (ctx.signal.aborted) return aborted()

  const parsed = def.parameters.safeParse(rawInput)
  if (!parsed.success) return done(false, formatValidationError(def, parsed.error, rawInput), { invalidArguments: true })
  const input: unknown = parsed.data

  try {
    const invalid = def.validate ? await def.validate(input) : null
    if (invalid) return done(false, invalid, { invalidArguments: true })
    await def.prepare?.()
    const ask = def.permission(input, ctx)
    if ((ask && (!Array.isArray(ask) || ask.length > 0)) || ctx.mustAsk) {
      const display = def.display ? await def.display(input, ctx) : undefined
      const verdict = await ctx.authorize(ask ?? [], display)
      if (!verdict.ok) return done(false, verdict.message, { denied: true })
    }
  } catch (e) {
    return done(false, errorMessage(e))
  }
  if (ctx.signal.aborted) return aborted()

  // Tools honour the signal themselves; the race only guards against one that does not.
  const abortWait = afterAbort(ctx.signal, ABORT_GRACE_MS)
  let result: ToolResult | typeof ABORTED
  try {
    result = await Promise.race([def.execute(input, ctx), abortWait.promise])
  } catch (e) {
    if (ctx.signal.aborted && !(ToolError.isInstance(e) && e.describesAbort)) return aborted()
    return done(false, errorMessage(e))
  } finally {
    abortWait.dispose()
  }
  if (result === ABORTED) return aborted()

  const maxChars = def.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS
  const cut = truncateOutput(result.output, { maxChars, overflowDir: ctx.overflowDir })
  const metadata = cut.truncated
    ? { ...result.metadata, truncated: true, ...(cut.fullPath ? { fullOutputPath: cut.fullPath, fullOutputRef: cut.ref } : {}) }
    : result.metadata
  // A tool that wound down after an abort (bash) may still have useful partial output.
  if (ctx.signal.aborted) {
    const partial = cut.text ? `\nOutput before the abort:\n${cut.text}` : ''
    return done(false, `${aborted().output}${partial}`, { ...metadata, aborted: true })
  }
  return done(true, cut.text, metadata)
}
