import fs from 'node:fs'
import path from 'node:path'
import { errnoText, isMissing } from '../files'

/** How a `!` shell line ran: its output, or why it did not (denied by a rule, by the person, headless). */
export type ShellOutcome = { ok: true; output: string } | { ok: false; message: string }

export interface ExpandContext {
  /** the workspace: `@path` references resolve inside it and nowhere else */
  workdir: string
  /** runs one `!` line under bash's permission gate and sandbox (the host's port) */
  runShell(command: string): Promise<ShellOutcome>
}

export type Expansion = { ok: true; text: string } | { ok: false; message: string }

/** An inlined file bigger than this is cut (like read_file's default window): a prompt, not a copy of the repo. */
export const MAX_INLINED_FILE_CHARS = 100_000

// `!`cmd`` (Claude Code and opencode), or `@path` at the start of a word (an argument may stand in it: `@$1`)
const SPECIAL = /!`([^`\n]+)`|(^|[\s(])@([\w.$/-]+)/g
// What a reference must look like to be one: a dot or a slash (`@src/a.ts`, `@README.md`; not `@Component`, `@user`)
const PATH_LIKE = /^(?:[\w.-]+\/)*[\w-]*\.[\w.-]+$|^(?:[\w.-]+\/)+[\w.-]+$/

/**
 * A command's prompt as Claude Code and opencode make it: `$ARGUMENTS` is everything after the name, `$1`…`$9` its
 * words (quotes group words), `@path` the content of a workspace file, `` !`cmd` `` the output of a shell command.
 * `@` and `!` are found in the template only: text the person typed is substituted, never itself scanned for them
 * (a pasted `@../x` or `` !`…` `` stays text). When the template names no argument and some were given, they are
 * appended (`ARGUMENTS: …`), as Claude Code does, so they are never silently dropped.
 */
export async function expandCommand(template: string, args: string, ctx: ExpandContext): Promise<Expansion> {
  const words = splitArguments(args)
  const usesArgs = /\$ARGUMENTS\b|\$[1-9]\b/.test(template)
  const fill = (s: string) => s.replace(/\$ARGUMENTS\b|\$([1-9])\b/g, (_m, n: string | undefined) => (n ? (words[Number(n) - 1] ?? '') : args))
  let out = ''
  let last = 0
  for (const m of template.matchAll(SPECIAL)) {
    out += fill(template.slice(last, m.index))
    last = m.index + m[0].length
    if (m[1] !== undefined) {
      const command = fill(m[1]).trim()
      const ran = await ctx.runShell(command)
      if (!ran.ok) return { ok: false, message: `the shell line \`${command}\` did not run: ${ran.message}` }
      out += ran.output.replace(/\s+$/, '')
      continue
    }
    const filled = fill(m[3])
    // A sentence's full stop or comma after the path is not part of it.
    const rel = filled.replace(/[.,;:]+$/, '')
    if (!PATH_LIKE.test(rel)) {
      out += `${m[2]}@${filled}`
      continue
    }
    const read = readWorkspaceFile(ctx.workdir, rel)
    if (!read.ok) return read
    out += `${m[2]}${read.text}${filled.slice(rel.length)}`
  }
  out += fill(template.slice(last))
  if (!usesArgs && args) out = `${out.replace(/\s+$/, '')}\n\nARGUMENTS: ${args}`
  return { ok: true, text: out }
}

/** A workspace file's text, confined like read_file: the real path must lie inside the workspace's real path. */
export function readWorkspaceFile(workdir: string, rel: string): { ok: true; text: string } | { ok: false; message: string } {
  const root = realOr(workdir)
  const target = path.resolve(root, rel)
  let real: string
  try {
    real = fs.realpathSync(target)
  } catch (err) {
    return { ok: false, message: isMissing(err) ? `@${rel}: no such file in the workspace (${root})` : `@${rel}: cannot read it (${errnoText(err)})` }
  }
  const inside = path.relative(root, real)
  if (inside.startsWith('..') || path.isAbsolute(inside)) return { ok: false, message: `@${rel}: outside the workspace (${root}); a command can only inline the workspace's files` }
  let data: string
  try {
    if (fs.statSync(real).isDirectory()) return { ok: false, message: `@${rel}: is a folder; name a file` }
    data = fs.readFileSync(real, 'utf8')
  } catch (err) {
    return { ok: false, message: `@${rel}: cannot read it (${errnoText(err)})` }
  }
  const cut = data.length > MAX_INLINED_FILE_CHARS ? `${data.slice(0, MAX_INLINED_FILE_CHARS)}\n[… @${rel} cut at ${MAX_INLINED_FILE_CHARS} characters]` : data
  return { ok: true, text: `\n<file path="${rel}">\n${cut.replace(/\s+$/, '')}\n</file>\n` }
}

function realOr(p: string): string {
  try {
    return fs.realpathSync(p)
  } catch {
    return path.resolve(p)
  }
}

/** The arguments as words: whitespace separates, double or single quotes group (`"a b" c` → `a b`, `c`). */
export function splitArguments(args: string): string[] {
  const words: string[] = []
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g
  for (const m of args.matchAll(re)) words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]))
  return words
}
