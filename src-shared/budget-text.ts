import type { Budget, BudgetSpent } from './budget'

/** Budgets in words, for every client. No zod here: the CLI prints these without loading a schema. */

/** The fields a budget sets, as `$0.50, 200k tokens, 120 s, 30 steps`. */
export function describeBudget(b: Budget): string {
  const parts: string[] = []
  if (b.costUsd !== undefined) parts.push(formatUsd(b.costUsd))
  if (b.tokens !== undefined) parts.push(`${formatCount(b.tokens)} tokens`)
  if (b.seconds !== undefined) parts.push(`${Math.round(b.seconds)} s`)
  if (b.steps !== undefined) parts.push(`${b.steps} steps`)
  return parts.join(', ') || 'no limit'
}

/** Spent against the limits a budget sets, as `$0.12 of $0.50, 40k of 200k tokens`. */
export function describeSpend(limit: Budget, spent: BudgetSpent): string {
  const parts: string[] = []
  if (limit.costUsd !== undefined) parts.push(`${spent.costUsd === null ? 'unknown cost' : formatUsd(spent.costUsd)} of ${formatUsd(limit.costUsd)}`)
  if (limit.tokens !== undefined) parts.push(`${formatCount(spent.tokens)} of ${formatCount(limit.tokens)} tokens`)
  if (limit.seconds !== undefined) parts.push(`${Math.round(spent.seconds)} of ${Math.round(limit.seconds)} s`)
  if (limit.steps !== undefined) parts.push(`${spent.steps} of ${limit.steps} steps`)
  return parts.join(', ')
}

/** `$0`, `$0.0031` below a cent, else `$1.25`: every client's way of writing a cost. */
export function formatUsd(v: number): string {
  if (v === 0) return '$0'
  return v < 0.01 ? `$${v.toFixed(4)}` : `$${v.toFixed(2)}`
}

function formatCount(n: number): string {
  if (n >= 1_000_000) return `${+(n / 1_000_000).toFixed(2)}M`
  if (n >= 10_000) return `${Math.round(n / 1000)}k`
  return String(Math.round(n))
}

/**
 * `0.5`, `$0.50`, `200k`, `1.5M`, `1,000` → the number; empty → null (remove the setting); anything else → undefined.
 * The suffixes because token budgets are large numbers people write as "200k". Settings › Budgets and
 * `agentry run --max-cost/--max-tokens` read amounts with it.
 */
export function parseAmount(text: string): number | null | undefined {
  const t = text.trim().replace(/^\$/, '').replace(/[,_\s]/g, '')
  if (t === '') return null
  // A sign is read (and refused by the setting's own rule, with its reason) rather than called "not a number".
  const m = /^(-?(?:\d+(?:\.\d*)?|\.\d+))([kKmM]?)$/.exec(t)
  if (!m) return undefined
  const scale = m[2] === '' ? 1 : m[2].toLowerCase() === 'k' ? 1_000 : 1_000_000
  return Math.round(Number(m[1]) * scale * 1e6) / 1e6
}
