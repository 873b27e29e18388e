import path from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { grepSearch, type GrepSearchResult } from './grep-search'
import { statIfExists } from './text-file'
import { defineTool, ToolError } from './tool'
import { listNames } from './walk'
import { fileReadAsk, pathAsk, pathSubject, resolveForCall, resolveWorkspacePath } from './workspace-path'

export const MAX_GREP_MATCHES = 500
export const MAX_GREP_FILE_BYTES = 16 * 1024 * 1024
export const GREP_TIME_BUDGET_MS = 20_000
const MAX_GREP_WALK = 200_000
const MAX_MATCH_LINE_CHARS = 300

export const GrepParameters = z.object({
  pattern: z
    .string()
    .min(1)
    .max(1_000)
    .describe('Regular expression searched for in each line (RE2 syntax, like JavaScript\'s without lookaround or backreferences), e.g. "TODO|FIXME" or "export (async )?function".'),
  path: z.string().min(1).optional().describe('File or folder to search, relative to the workspace root. Default: the workspace root.'),
  include: z.string().min(1).optional().describe('Only search files matching this glob, e.g. "*.ts" (matched against the file name) or "src/**/*.tsx" (matched against the path).'),
})

const description = `Search file contents with a regular expression, line by line.
- Output lines look like "path:line: text", paths relative to the workspace root, files in name order.
- Use include to restrict to file names (e.g. "*.ts") and path to restrict to a folder.
- The syntax is RE2: like JavaScript's, but lookahead, lookbehind and backreferences are not supported. Escape regex special characters (. ( ) [ ] { } * + ? | ^ $ \\) to search for them literally.
- Skips .git, node_modules, files ignored by .gitignore (pass an ignored folder as path to search it), binary files and files over ${MAX_GREP_FILE_BYTES / 1024 / 1024} MB, and files you may not read with read_file.
- Stops at ${MAX_GREP_MATCHES} matches, or after ${GREP_TIME_BUDGET_MS / 1000} s with the matches found so far.`

function includeMatcher(include: string | undefined): (rel: string) => boolean {
  if (!include) return () => true
  const isMatch = picomatch(include, { dot: true })
  // "*.ts" means "any file named *.ts"; a pattern with a folder part is matched against the path.
  return include.includes('/') ? isMatch : (rel) => isMatch(path.posix.basename(rel))
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** What the model should know about what was not searched, one line each. */
function notes(r: GrepSearchResult, budgetMs: number): string[] {
  const out: string[] = []
  if (r.timedOut) out.push(`Stopped after ${budgetMs / 1000} s with a partial result (${plural(r.filesRead, 'file')} searched); narrow path or include to search the rest.`)
  if (r.walkExhausted) out.push(`Stopped after ${MAX_GREP_WALK} files; narrow path or include to search the rest.`)
  if (r.denied.length) out.push(`Not searched, the rules do not let you read them: ${listNames(r.denied)}.`)
  if (r.needsApproval.length) out.push(`Not searched, reading them needs approval (use read_file to ask): ${listNames(r.needsApproval)}.`)
  if (r.linksOutside.length) out.push(`Skipped symbolic links pointing outside the workspace: ${listNames(r.linksOutside)}.`)
  if (r.changed.length) out.push(`Skipped, replaced during the search (e.g. by a symbolic link): ${listNames(r.changed)}.`)
  if (r.unreadable.length) out.push(`Could not read: ${listNames(r.unreadable)}.`)
  if (r.unreadableDirs.length) out.push(`Could not read folders: ${listNames(r.unreadableDirs)}.`)
  if (r.binary) out.push(`Skipped ${plural(r.binary, 'binary file')}.`)
  if (r.large.length) out.push(`Skipped files over ${MAX_GREP_FILE_BYTES / 1024 / 1024} MB: ${listNames(r.large)}.`)
  if (r.ignored) out.push(`Skipped ${plural(r.ignored, 'path')} ignored by .gitignore; pass an ignored folder as path to search it.`)
  return out
}

/** grep with its time budget (tests give it a short one). */
export function createGrepTool(o: { budgetMs?: number } = {}) {
  const budgetMs = o.budgetMs ?? GREP_TIME_BUDGET_MS
  return defineTool({
    name: 'grep',
    description,
    parameters: GrepParameters,
    permission(input, ctx) {
      return pathAsk(resolveForCall(input, ctx.workdir, input.path ?? '.'))
    },
    async execute(input, ctx) {
      const root = resolveWorkspacePath(ctx.workdir, '.').abs
      const base = resolveForCall(input, ctx.workdir, input.path ?? '.')
      const shownBase = pathSubject(base)
      const stat = await statIfExists(base.abs)
      if (!stat) throw new ToolError(`Path not found: ${shownBase}. Use list_dir or glob to find the right path.`)
      const r = await grepSearch({
        pattern: input.pattern,
        base: base.abs,
        baseIsFile: !stat.isDirectory(),
        root,
        shownBase,
        include: includeMatcher(input.include),
        // grep shows file contents: a file read_file could not read without asking is skipped and named instead.
        readable: (file) => ctx.checkRules(fileReadAsk(root, file.abs, file.linked ? undefined : file.shown)),
        signal: ctx.signal,
        budgetMs,
        maxMatches: MAX_GREP_MATCHES,
        maxLineChars: MAX_MATCH_LINE_CHARS,
        maxFileBytes: MAX_GREP_FILE_BYTES,
        maxFiles: MAX_GREP_WALK,
      })
      const metadata = { matches: r.matches.length, files: r.filesWithMatches, filesRead: r.filesRead, capped: r.capped, timedOut: r.timedOut }
      const where = shownBase === '.' ? 'the workspace root' : shownBase
      if (r.matches.length === 0) return { output: [`No matches for /${input.pattern}/ in ${where}.`, ...notes(r, budgetMs)].join('\n'), metadata }
      const inFiles = plural(r.filesWithMatches, 'file')
      const head = r.capped
        ? `Showing the first ${MAX_GREP_MATCHES} matches in ${inFiles}; there are more (the search stopped there): narrow the pattern, path or include.`
        : `${plural(r.matches.length, 'match', 'matches')} in ${inFiles}${r.timedOut ? ' (partial)' : ''}:`
      return { output: [head, ...r.matches, ...notes(r, budgetMs)].join('\n'), metadata }
    },
  })
}

export const grepTool = createGrepTool()
