import fs from 'node:fs'
import path from 'node:path'
import YAML from 'yaml'
import type { AgentMode } from '../../src-shared'
import { newAgentFolder } from './agent-folders'
import type { AgentRegistry } from './agent-registry'
import { parseManifest, toSlug } from './parse-manifest'
import { AGENTRY_TOOLS } from './tool-names'

export interface NewAgent {
  scope: 'workspace' | 'user'
  name: string
  description: string
  mode: AgentMode
  /** Agentry tool names; undefined = every tool */
  tools?: string[]
  model?: string
  prompt: string
}

export class AgentFileError extends Error {
  override readonly name = 'AgentFileError'
  constructor(
    readonly code: 'conflict' | 'invalid_request',
    message: string,
  ) {
    super(message)
  }
}

/** The file a "New agent" form writes: ordinary frontmatter, then the prompt. */
export function agentFileText(a: Omit<NewAgent, 'scope'>): string {
  const fields: Record<string, unknown> = { name: a.name.trim(), description: a.description.trim(), mode: a.mode }
  const all = a.tools === undefined || AGENTRY_TOOLS.every((t) => t === 'plan_exit' || a.tools?.includes(t))
  if (!all) fields.tools = (a.tools ?? []).join(', ')
  if (a.model && a.model !== 'inherit') fields.model = a.model
  const body = a.prompt.trim()
  return `---\n${YAML.stringify(fields, { lineWidth: 0 })}---\n${body ? `${body}\n` : ''}`
}

/**
 * Writes a new agent file into the folder the scope reads (`.agents/agents/`, or `.claude/agents/` when only
 * that exists — creating `.agents/agents/` then would hide it), never over an existing file, and checks that
 * it loads. Returns the file and the agent's name.
 */
export function createAgentFile(registry: AgentRegistry, dirs: { dataDir: string; workdir: string }, a: NewAgent): { file: string; name: string } {
  const slug = toSlug(a.name)
  if (!slug) throw new AgentFileError('invalid_request', `The name "${a.name}" has no letter or digit to name the file by; pick another name.`)
  const unknown = (a.tools ?? []).filter((t) => !(AGENTRY_TOOLS as readonly string[]).includes(t))
  if (unknown.length) throw new AgentFileError('invalid_request', `Unknown tools: ${unknown.join(', ')}. Pick from ${AGENTRY_TOOLS.join(', ')}.`)
  const kind = a.scope === 'workspace' ? 'project' : 'user'
  const folder = newAgentFolder(a.scope === 'workspace' ? dirs.workdir : dirs.dataDir, kind)
  const file = path.join(folder, `${slug}.md`)
  const text = agentFileText(a)
  const check = parseManifest(file, text, kind)
  if ('errors' in check) throw new AgentFileError('invalid_request', check.errors.map((e) => `${e.field}: ${e.reason}`).join('; '))

  const same = registry.resolve(dirs.workdir).byName.get(slug)
  if (same && same.source.kind === kind) {
    throw new AgentFileError('conflict', `An agent named "${slug}" already exists in ${same.source.file}. Pick another name or edit that file.`)
  }
  fs.mkdirSync(folder, { recursive: true })
  try {
    // wx: fails when the file exists, so nothing is ever overwritten, even in a race with another writer.
    fs.writeFileSync(file, text, { flag: 'wx' })
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'EEXIST') {
      throw new AgentFileError('conflict', `${file} already exists; it was left unchanged. Pick another name or edit that file.`)
    }
    throw err
  }
  const why = registry
    .resolve(dirs.workdir)
    .errors.filter((e) => e.file === file)
    .map((e) => `${e.field}: ${e.reason}`)
  if (why.length) {
    // Should not happen (the text was checked above); never leave a file behind that does not load.
    fs.rmSync(file, { force: true })
    throw new AgentFileError('invalid_request', `The new agent file did not load (${why.join('; ')}); it was removed again.`)
  }
  return { file, name: slug }
}
