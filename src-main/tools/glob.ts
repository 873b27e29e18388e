import path from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { statIfExists } from './text-file'
import { defineTool, ToolError } from './tool'
import { listNames, walkFiles } from './walk'
import { fileReadAsk, pathSubject, resolveForCall, resolveWorkspacePath } from './workspace-path'

export const MAX_GLOB_RESULTS = 1_000
/** Files examined per call; beyond this the workspace is too big to walk in one go. */
const MAX_GLOB_WALK = 200_000

export const GlobParameters = z.object({
  pattern: z.string().min(1).describe('Glob matched against file paths relative to the search folder, e.g. "**/*.ts" or "src/**/test-*.js".'),
  path: z.string().min(1).optional().describe('Folder to search in, relative to the workspace root. Default: the workspace root.'),
})

const description = `Find files by glob pattern (picomatch syntax: *, **, ?, {a,b}, [abc]; dot files included).
- The pattern is matched against each file's path relative to the search folder: "*.ts" matches only top-level files, "**/*.ts" matches at any depth.
- .git, node_modules and files ignored by .gitignore are skipped (pass an ignored folder as path to search it). Only files are returned, not folders.
- Files you may not read with read_file, and symbolic links pointing outside the workspace, are left out and named in a note.
- Results are workspace-relative paths, newest first (by modification time), at most ${MAX_GLOB_RESULTS}.`

export const globTool = defineTool({
  name: 'glob',
  description,
  parameters: GlobParameters,
  permission(input, ctx) {
    if (input.path === undefined) return { kind: 'path', subjects: [input.pattern] }
    const base = resolveForCall(input, ctx.workdir, input.path)
    // The pattern is relative to the folder searched, so it is judged there: `**/*.md` in a skill folder outside the
    // workspace is that folder's `…/skills/pdf/**/*.md` (a rule for the folder covers it), not a workspace path.
    const within = pathSubject(base) === '.' ? input.pattern : path.posix.join(pathSubject(base).split(path.sep).join('/'), input.pattern.replace(/^\.\//, ''))
    return { kind: 'path', subjects: [pathSubject(base), within], ...(base.outside ? { outsideWorkspace: true } : {}) }
  },
  async execute(input, ctx) {
    if (path.isAbsolute(input.pattern)) {
      throw new ToolError('pattern must be relative to the search folder; pass the folder as path and a relative pattern like "**/*.ts".')
    }
    const root = resolveWorkspacePath(ctx.workdir, '.').abs
    const base = input.path === undefined ? resolveWorkspacePath(ctx.workdir, '.') : resolveForCall(input, ctx.workdir, input.path)
    const shownBase = pathSubject(base)
    const stat = await statIfExists(base.abs)
    if (!stat) throw new ToolError(`Folder not found: ${shownBase}. Use list_dir to see what exists.`)
    if (!stat.isDirectory()) throw new ToolError(`${shownBase} is a file, not a folder; pass a folder as path.`)

    const isMatch = picomatch(input.pattern.replace(/^\.\//, ''), { dot: true })
    const matches: Array<{ shown: string; mtime: number }> = []
    const denied: string[] = []
    const summary = await walkFiles(base.abs, {
      root,
      signal: ctx.signal,
      maxFiles: MAX_GLOB_WALK,
      gitignore: true,
      async visit(file) {
        if (!isMatch(file.rel)) return true
        // A name is not content, so a file whose read would ask is listed; one the rules deny is not.
        if (ctx.checkRules(fileReadAsk(root, file.abs, file.linked ? undefined : file.shown)) === 'deny') {
          denied.push(file.shown)
          return true
        }
        const st = await statIfExists(file.abs)
        // Deleted between the directory read and now: it no longer matches anything.
        if (st) matches.push({ shown: file.shown, mtime: st.mtimeMs })
        return true
      },
    })

    const notes: string[] = []
    if (summary.exhausted) notes.push(`Stopped after examining ${MAX_GLOB_WALK} files; narrow path to search the rest.`)
    if (summary.unreadable.length) notes.push(`Could not read folders: ${listNames(summary.unreadable)}.`)
    if (denied.length) notes.push(`Left out, the rules do not let you read them: ${listNames(denied)}.`)
    if (summary.linksOutside.length) notes.push(`Left out, symbolic links pointing outside the workspace: ${listNames(summary.linksOutside)}.`)
    if (matches.length === 0) {
      const hint = input.pattern.includes('/') ? '' : ` Patterns without "/" only match top-level files; try "**/${input.pattern}".`
      return { output: [`No files match ${input.pattern} in ${shownBase === '.' ? 'the workspace root' : shownBase}.${hint}`, ...notes].join('\n'), metadata: { count: 0 } }
    }
    matches.sort((a, b) => b.mtime - a.mtime || (a.shown < b.shown ? -1 : 1))
    const head =
      matches.length > MAX_GLOB_RESULTS
        ? `Showing the ${MAX_GLOB_RESULTS} newest of ${matches.length} matching files; narrow the pattern or path to see the rest.`
        : `${matches.length} matching file${matches.length === 1 ? '' : 's'}, newest first:`
    const lines = matches.slice(0, MAX_GLOB_RESULTS).map((m) => m.shown)
    return { output: [head, ...lines, ...notes].join('\n'), metadata: { count: matches.length } }
  },
})
