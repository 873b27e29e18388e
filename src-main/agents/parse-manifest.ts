import path from 'node:path'
import { AGENT_NAME_RE, AgentFrontmatter, describeZodIssues, type AgentFormat, type AgentInfo, type AgentLoadError, type AgentWarning } from '../../src-shared'
import { parseFrontmatterYaml } from '../config'
import { splitFrontmatter } from './frontmatter'
import { mapFields } from './manifest-fields'

/** `disabled`: opencode's `disable: true` — the file is valid, and says the agent must not exist. */
export type ManifestResult = { agent: AgentInfo; disabled: boolean } | { errors: AgentLoadError[] }

/** An agent file larger than this is refused unread (prompts are a few KiB; 1 MiB is far beyond any real one). */
export const MAX_AGENT_FILE_CHARS = 1024 * 1024

const Settings = AgentFrontmatter.omit({ name: true })

export interface ManifestOptions {
  /** the format of the folder the file is in (`.claude/agents` → claude); Agentry's own folders detect it */
  format?: AgentFormat
}

/**
 * Parses one agent file: YAML frontmatter between `---` lines, then the Markdown prompt. Agentry's, Claude
 * Code's and opencode's fields are all understood; unknown keys are warnings. Only a file whose intent cannot be
 * known (no description, YAML that does not parse, a value of the wrong type) is an error, and every problem
 * is reported at once so one save fixes them all. Never throws.
 */
export function parseManifest(file: string, text: string, source: 'user' | 'project', opts: ManifestOptions = {}): ManifestResult {
  const fail = (field: string, reason: string, line?: number): ManifestResult => ({ errors: [{ file, field, reason, ...(line ? { line } : {}) }] })
  if (text.length > MAX_AGENT_FILE_CHARS) return fail('file', `the file is larger than ${MAX_AGENT_FILE_CHARS / (1024 * 1024)} MiB; shorten the prompt`)
  const split = splitFrontmatter(text)
  if (!split.ok) return fail('frontmatter', split.reason, split.line)

  // Frontmatter starts on the file's second line; shift positions so they point into the file.
  const yaml = parseFrontmatterYaml(split.yaml, 1)
  if (!yaml.ok) return { errors: yaml.errors.map((e) => ({ file, field: 'frontmatter', line: e.line, reason: e.reason })) }
  const raw = yaml.value ?? {}
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return fail('frontmatter', 'must be a mapping of fields such as "description: …", not a list or a single value', 2)
  }
  const fields = raw as Record<string, unknown>
  const lineOf = (key: string): number | undefined => yaml.keyLines[key]
  const mapped = mapFields(fields, opts.format ?? 'agentry', lineOf, source)
  const errors: AgentLoadError[] = mapped.errors.map((e) => ({ file, ...e, ...lineFor(lineOf, e.field) }))

  const parsed = Settings.safeParse(mapped.settings)
  if (!parsed.success) {
    for (const p of describeZodIssues(parsed.error.issues, mapped.settings, Settings)) {
      // Say it in the author's words: `maxTurns`, not the `maxSteps` it became.
      const [head, ...rest] = p.path.split('.')
      const field = [mapped.origin[head] ?? head, ...rest].join('.') || 'frontmatter'
      const reason = head === 'description' ? descriptionReason(p.reason) : p.reason
      errors.push({ file, field, reason, ...lineFor(lineOf, field) })
    }
  }
  const name = agentName(file, fields.name)
  if ('error' in name) errors.push({ file, field: 'name', reason: name.error, ...lineFor(lineOf, 'name') })
  if (errors.length > 0 || !parsed.success || 'error' in name) return { errors }

  const warnings: AgentWarning[] = [...yaml.warnings, ...mapped.warnings]
  if (split.closingDashes > 3) {
    warnings.push({ field: 'frontmatter', line: split.closingLine, reason: `closed by a line of ${split.closingDashes} dashes; use exactly "---"` })
  }
  const agent: AgentInfo = {
    name: name.slug,
    ...(name.display ? { displayName: name.display } : {}),
    ...parsed.data,
    prompt: split.body,
    source: { kind: source, file, format: mapped.format },
    warnings,
    ...(mapped.mcpTools.length ? { mcpTools: mapped.mcpTools } : {}),
    ...(mapped.mcpServers !== undefined ? { mcpServers: mapped.mcpServers } : {}),
  }
  return { agent, disabled: mapped.disabled }
}

/** `Python Testing Expert` → `python-testing-expert`; `powershell-5.1-expert` → `powershell-5-1-expert`. */
export function toSlug(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
}

/** The agent's name as a slug (from `name:`, else the file name), and the display name when they differ. */
function agentName(file: string, given: unknown): { slug: string; display?: string } | { error: string } {
  const fileName = path.basename(file).replace(/\.md$/i, '')
  if (given !== undefined && given !== null && given !== '') {
    if (typeof given !== 'string' && typeof given !== 'number') return { error: `must be text (got ${JSON.stringify(given)})` }
    const display = String(given).trim()
    const slug = AGENT_NAME_RE.test(display) ? display : toSlug(display)
    if (slug) return { slug, ...(slug !== display ? { display } : {}) }
    // Nothing usable in it (e.g. only punctuation): fall back to the file name below.
  }
  const slug = toSlug(fileName)
  if (!slug) return { error: `neither the name field nor the file name "${fileName}" has a letter or digit to name the agent by; add "name: my-agent"` }
  return { slug }
}

/** The line of the deepest key of `field` (`permission.read_file["*.env"]`) that the frontmatter has. */
function lineFor(lineOf: (key: string) => number | undefined, field: string): { line?: number } {
  const segments = [...field.matchAll(/\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]|([^.[\]]+)/g)].map((m) => (m[1] !== undefined ? JSON.parse(`"${m[1]}"`) : (m[2] ?? m[3])) as string)
  for (let n = segments.length; n > 0; n--) {
    const line = lineOf(segments.slice(0, n).join('.'))
    if (line !== undefined) return { line }
  }
  return {}
}

function descriptionReason(reason: string): string {
  if (reason === 'required') return 'required: add a one-line description, e.g. description: Reviews code for bugs'
  if (reason.startsWith('must not be empty')) return 'must not be empty: add a one-line description'
  return reason
}
