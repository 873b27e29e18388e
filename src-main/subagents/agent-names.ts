/**
 * What `subagent_type` a model means. Models trained on other hosts send their names (`general-purpose`, `Explore`,
 * `code_reviewer`): a name that differs only in case and separators, or that is a longer or shorter form of exactly
 * one agent's name (five letters at least in common: `general-purpose` → `general`, `explorer` → `explore`), is that
 * agent. Anything else is not guessed.
 */
export function resolveAgentName(asked: string, names: readonly string[]): string | undefined {
  if (names.includes(asked)) return asked
  const key = normalized(asked)
  if (!key) return undefined
  const same = names.filter((n) => normalized(n) === key)
  if (same.length === 1) return same[0]
  if (same.length > 1) return undefined
  const near = names.filter((n) => {
    const k = normalized(n)
    return Math.min(k.length, key.length) >= 5 && (k.startsWith(key) || key.startsWith(k))
  })
  return near.length === 1 ? near[0] : undefined
}

const normalized = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '')
