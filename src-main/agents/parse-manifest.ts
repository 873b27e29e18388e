import path from 'node:path'
import { AGENT_NAME_RE, AgentFrontmatter, type AgentInfo, type AgentLoadError, describeZodIssues } from '../../src-shared'
import { parseYamlText } from '../config'

export type ManifestResult = { agent: AgentInfo } | { errors: AgentLoadError[] }

const DELIMITER = /^---\s*$/

/**
 * Parses one agent manifest: YAML frontmatter between `---` lines, then the Markdown prompt.
 * Returns every problem at once (so one save fixes them all) and never throws.
 */
export function parseManifest(file: string, text: string, source: 'user' | 'project'): ManifestResult {
  const fail = (field: string, reason: string): ManifestResult => ({ errors: [{ file, field, reason }] })
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  if (!DELIMITER.test(lines[0] ?? '')) {
    return fail(
      'frontmatter',
      'missing YAML frontmatter: start the file with a "---" line, then fields such as "description: …", then a closing "---" line',
    )
  }
  const close = lines.findIndex((line, i) => i > 0 && DELIMITER.test(line))
  if (close < 0) return fail('frontmatter', 'the frontmatter is not closed: add a "---" line after the last field')

  // Frontmatter starts on the file's second line; shift positions so they point into the file.
  const yaml = parseYamlText(lines.slice(1, close).join('\n'), 1)
  if (!yaml.ok) return { errors: yaml.errors.map((e) => ({ file, field: 'frontmatter', reason: e.reason })) }
  const raw = yaml.value ?? {}
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return fail('frontmatter', 'must be a mapping of fields such as "description: …", not a list or a single value')
  }

  const errors: AgentLoadError[] = []
  const parsed = AgentFrontmatter.safeParse(raw)
  if (!parsed.success) {
    for (const p of describeZodIssues(parsed.error.issues, raw, AgentFrontmatter)) {
      errors.push({ file, field: p.path || 'frontmatter', reason: p.path === 'description' ? descriptionReason(p.reason) : p.reason })
    }
  }
  const fileName = path.basename(file).replace(/\.md$/, '')
  const explicitName = 'name' in raw
  if (!explicitName && !AGENT_NAME_RE.test(fileName)) {
    errors.push({
      file,
      field: 'name',
      reason: `the file name "${fileName}" is not a valid agent name (lowercase letters, digits, "-" and "_", matching [a-z0-9][a-z0-9_-]*): rename the file or add a "name:" field`,
    })
  }
  if (errors.length > 0 || !parsed.success) return { errors }

  const { name = fileName, ...fields } = parsed.data
  const prompt = lines
    .slice(close + 1)
    .join('\n')
    .trim()
  return { agent: { name, ...fields, prompt, source: { kind: source, file } } }
}

function descriptionReason(reason: string): string {
  if (reason === 'required') return 'required: add a one-line description'
  if (reason.startsWith('must not be empty')) return 'must not be empty: add a one-line description'
  return reason
}
