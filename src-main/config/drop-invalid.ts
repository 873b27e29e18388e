import type { z } from 'zod'
import { describeZodIssues, isPlainObject, valueAt, type FieldProblem } from '../../src-shared'

type Path = readonly PropertyKey[]

const MAX_PASSES = 10

/**
 * Validates `raw` and, where it is invalid, removes only the offending keys so the rest of a
 * user's file still applies (one typo must not reset every setting). Returns the cleaned raw
 * input (defaults NOT applied, so it can be merged with other layers) and the problems found
 * on the first pass — later passes only catch fallout of the removals (e.g. a provider whose
 * `type` was dropped is now incomplete), which is the same mistake and is not reported twice.
 */
export function dropInvalid(raw: unknown, schema: z.ZodType): { clean: Record<string, unknown>; problems: FieldProblem[] } {
  if (raw === undefined || raw === null) return { clean: {}, problems: [] }
  if (!isPlainObject(raw)) {
    return { clean: {}, problems: [{ path: '', segments: [], reason: 'must be a mapping of settings (key: value), not a list or a single value' }] }
  }
  const clean: Record<string, unknown> = structuredClone(raw)
  let problems: FieldProblem[] | undefined
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const result = schema.safeParse(clean)
    if (result.success) return { clean, problems: problems ?? [] }
    problems ??= describeZodIssues(result.error.issues, clean, schema)
    const removals = result.error.issues.flatMap((issue): Path[] => {
      if (issue.code === 'unrecognized_keys') return issue.keys.map((k) => [...issue.path, k])
      return [issue.path]
    })
    let removed = false
    for (const path of removals) {
      const target = valueAt(clean, path) === undefined ? path.slice(0, -1) : path
      if (target.length === 0) return { clean: {}, problems }
      removed = deleteAt(clean, target) || removed
    }
    if (!removed) break
  }
  // Could not isolate the bad part: fall back to defaults for this whole file rather than guess.
  return { clean: {}, problems: problems ?? [] }
}

function deleteAt(root: Record<string, unknown>, path: Path): boolean {
  const parent = valueAt(root, path.slice(0, -1))
  const key = path[path.length - 1]
  if (parent === null || typeof parent !== 'object' || !(key in parent)) return false
  if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1)
  else delete (parent as Record<PropertyKey, unknown>)[key]
  return true
}
