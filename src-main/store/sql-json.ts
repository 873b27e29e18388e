import type { z } from 'zod'
import { describeZodIssues, problemsLine } from '../../src-shared'
import { StoreError } from './store-error'

// Helpers for JSON columns. Rows are written only by this store, so reads trust the shape
// (a zod parse per row would cost more than the query on hot paths such as catch-up).

export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null)
}

export function parseJson(text: string | null): unknown {
  return text === null ? null : (JSON.parse(text) as unknown)
}

export function parseObject(text: string | null): Record<string, unknown> {
  if (text === '{}') return {} // the common case, skips the parser
  const value = parseJson(text)
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

export function parseStrings(text: string | null): string[] {
  const value = parseJson(text)
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

/** Validates one argument of a store call; the error names the call and the field. */
export function checkInput<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  throw new StoreError('invalid_input', `${where}: ${problemsLine(describeZodIssues(result.error.issues, value, schema), { top: 'value' })}`)
}
