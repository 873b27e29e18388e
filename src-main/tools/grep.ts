import fs from 'node:fs/promises'
import path from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { looksBinary, statIfExists } from './text-file'
import { defineTool, ToolError } from './tool'
import { walkFiles, type WalkFile } from './walk'
import { pathAsk, pathSubject, resolveWorkspacePath, shownPath } from './workspace-path'

export const MAX_GREP_MATCHES = 500
const MAX_GREP_FILE_BYTES = 2 * 1024 * 1024
const MAX_GREP_WALK = 200_000
const MAX_MATCH_LINE_CHARS = 300

export const GrepParameters = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression searched for in each line, e.g. "TODO|FIXME" or "export (async )?function".'),
  path: z.string().min(1).optional().describe('File or folder to search, relative to the workspace root. Default: the workspace root.'),
  include: z.string().min(1).optional().describe('Only search files matching this glob, e.g. "*.ts" (matched against the file name) or "src/**/*.tsx" (matched against the path).'),
})

const description = `Search file contents with a JavaScript regular expression, line by line.
- Output lines look like "path:line: text", paths relative to the workspace root, files in name order.
- Use include to restrict to file names (e.g. "*.ts") and path to restrict to a folder.
- Skips .git, node_modules, binary files and files over ${MAX_GREP_FILE_BYTES / 1024 / 1024} MB. At most ${MAX_GREP_MATCHES} matches are shown.
- Escape regex special characters (. ( ) [ ] { } * + ? | ^ $ \\) to search for them literally.`

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern)
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e)
    throw new ToolError(`pattern is not a valid JavaScript regular expression (${reason}); escape special characters with \\ to match them literally.`)
  }
}

function includeMatcher(include: string | undefined): (rel: string) => boolean {
  if (!include) return () => true
  const isMatch = picomatch(include, { dot: true })
  // "*.ts" means "any file named *.ts"; a pattern with a folder part is matched against the path.
  return include.includes('/') ? isMatch : (rel) => isMatch(path.posix.basename(rel))
}

export const grepTool = defineTool({
  name: 'grep',
  description,
  parameters: GrepParameters,
  permission(input, ctx) {
    return pathAsk(resolveWorkspacePath(ctx.workdir, input.path ?? '.'))
  },
  async execute(input, ctx) {
    const regex = compile(input.pattern)
    const root = resolveWorkspacePath(ctx.workdir, '.').abs
    const base = resolveWorkspacePath(ctx.workdir, input.path ?? '.')
    const shownBase = pathSubject(base)
    const stat = await statIfExists(base.abs)
    if (!stat) throw new ToolError(`Path not found: ${shownBase}. Use list_dir or glob to find the right path.`)
    const included = includeMatcher(input.include)

    const lines: string[] = []
    let total = 0
    let filesWithMatches = 0
    let skipped = 0
    const searchFile = async (file: WalkFile): Promise<boolean> => {
      if (!included(file.rel)) return true
      const st = await statIfExists(file.abs)
      if (!st) return true // deleted since the directory was read
      if (st.size > MAX_GREP_FILE_BYTES) {
        skipped++
        return true
      }
      const buf = await fs.readFile(file.abs)
      if (looksBinary(buf.subarray(0, 8_192))) {
        skipped++
        return true
      }
      const shown = shownPath(root, file.abs)
      let found = false
      const fileLines = buf.toString('utf8').split('\n')
      for (let i = 0; i < fileLines.length; i++) {
        const line = fileLines[i].replace(/\r$/, '')
        if (!regex.test(line)) continue
        found = true
        total++
        if (lines.length < MAX_GREP_MATCHES) {
          const text = line.length > MAX_MATCH_LINE_CHARS ? `${line.slice(0, MAX_MATCH_LINE_CHARS)}…` : line
          lines.push(`${shown}:${i + 1}: ${text}`)
        }
      }
      if (found) filesWithMatches++
      return true
    }

    const notes: string[] = []
    if (stat.isDirectory()) {
      const summary = await walkFiles(base.abs, { signal: ctx.signal, maxFiles: MAX_GREP_WALK, visit: searchFile })
      if (summary.exhausted) notes.push(`Stopped after searching ${MAX_GREP_WALK} files; narrow path or include to search the rest.`)
      if (summary.unreadable.length) notes.push(`Could not read folders: ${summary.unreadable.slice(0, 10).join(', ')}`)
    } else {
      await searchFile({ abs: base.abs, rel: path.basename(base.abs) })
    }
    if (skipped) notes.push(`Skipped ${skipped} binary or large file${skipped === 1 ? '' : 's'}.`)

    if (total === 0) {
      return { output: [`No matches for /${input.pattern}/ in ${shownBase === '.' ? 'the workspace root' : shownBase}.`, ...notes].join('\n'), metadata: { matches: 0 } }
    }
    const head =
      total > MAX_GREP_MATCHES
        ? `Showing the first ${MAX_GREP_MATCHES} of ${total} matches in ${filesWithMatches} file${filesWithMatches === 1 ? '' : 's'}; narrow the pattern, path or include.`
        : `${total} match${total === 1 ? '' : 'es'} in ${filesWithMatches} file${filesWithMatches === 1 ? '' : 's'}:`
    return { output: [head, ...lines, ...notes].join('\n'), metadata: { matches: total, files: filesWithMatches } }
  },
})
