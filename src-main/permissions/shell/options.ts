import type { ShellWord } from './words'

/** Which options a wrapper command accepts, so the words after them can be told apart from its command. */
export interface OptionSpec {
  /** short options that take an argument (`-u USER` or `-uUSER`) */
  shortArg?: string
  /** short options without an argument (may be combined: `-nE`) */
  shortFlags?: string
  /** short options whose argument can only be attached (`xargs -e[EOF]`) */
  shortAttached?: string
  /** long options that take an argument (`--user X`, `--user=X`) */
  longArg?: string[]
  /** long options without an argument, or with an optional attached one (`--differences[=permanent]`) */
  longFlags?: string[]
  /** `nice -5`: a dash followed by digits is an option */
  numeric?: boolean
}

export type OptionScan =
  | { ok: true; /** index of the first operand (args.length when none) */ operand: number; seen: Map<string, string | true> }
  | { ok: false; reason: string }

/**
 * Skips the options at the start of `args` (a wrapper's words after its name). An option the spec does not
 * know, or a word whose value is only known at run time, makes the scan fail: guessing wrong could mistake an
 * option's argument for the command that runs.
 */
export function scanOptions(command: string, args: ShellWord[], spec: OptionSpec): OptionScan {
  const seen = new Map<string, string | true>()
  let i = 0
  while (i < args.length) {
    const w = args[i]
    if (!w.literal) return { ok: false, reason: `cannot tell whether \`${w.source}\` is an option of ${command} or the command it runs` }
    const v = w.value
    if (v === '--') return { ok: true, operand: i + 1, seen }
    if (!v.startsWith('-') || v === '-') break
    if (v.startsWith('--')) {
      const eq = v.indexOf('=')
      const name = v.slice(2, eq === -1 ? undefined : eq)
      if (spec.longArg?.includes(name)) {
        if (eq !== -1) seen.set(name, v.slice(eq + 1))
        else {
          if (i + 1 >= args.length) return { ok: false, reason: `${command} --${name} is missing its argument` }
          seen.set(name, args[++i].value)
        }
      } else if (spec.longFlags?.includes(name)) seen.set(name, eq === -1 ? true : v.slice(eq + 1))
      else return { ok: false, reason: `${command} has an option Agentry does not know (\`${v}\`), so it cannot tell which command runs` }
      i++
      continue
    }
    if (spec.numeric && /^-\d+$/.test(v)) {
      seen.set('n', v.slice(1))
      i++
      continue
    }
    // A group of short options: flags, then at most one that takes the rest (or the next word) as its argument.
    let j = 1
    let consumedNext = false
    while (j < v.length) {
      const c = v[j]
      if (spec.shortFlags?.includes(c)) {
        seen.set(c, true)
        j++
      } else if (spec.shortAttached?.includes(c)) {
        seen.set(c, v.slice(j + 1) || true)
        j = v.length
      } else if (spec.shortArg?.includes(c)) {
        if (j + 1 < v.length) seen.set(c, v.slice(j + 1))
        else {
          if (i + 1 >= args.length) return { ok: false, reason: `${command} -${c} is missing its argument` }
          seen.set(c, args[i + 1].value)
          consumedNext = true
        }
        j = v.length
      } else return { ok: false, reason: `${command} has an option Agentry does not know (\`-${c}\` in \`${v}\`), so it cannot tell which command runs` }
    }
    i += consumedNext ? 2 : 1
  }
  return { ok: true, operand: i, seen }
}
