/**
 * Every file of the agents corpus (238 real Claude Code and opencode agent files, `testing/corpus/`) copied into
 * the folder its host reads, then loaded by the real registry. Per file: it loads (or, if its YAML does not parse,
 * the error names the line and the fix); its offered tools are the author's allow-list mapped (minus tools not
 * available here); tools the author switched off or denied are not offered; its model is what the alias table says.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import YAML from 'yaml'
import { AGENT_NAME_RE, Config, DEFAULT_MODEL_ALIASES, type AgentListEntry, type AgentLoadError } from '../../src-shared'
import { AGENTRY_TOOLS, AgentRegistry, CLAUDE_TOOL_MAP, listAgents, OPENCODE_TOOL_MAP } from './index'

const CORPUS = fileURLToPath(new URL('./testing/corpus/', import.meta.url))
const ALL = AGENTRY_TOOLS.filter((t) => t !== 'plan_exit')
/**
 * The files whose YAML strict parsing rejects (an unquoted `: ` in a value): the line the lenient reader warns about.
 * They load (issue 27), with a warning saying to quote the value.
 */
const YAML_RECOVERED: Record<string, number> = { 'claude/vijaythecoder-awesome-claude-agents/rails-backend-expert.md': 3 }
const CONFIG = Config.parse({ providers: { anthropic: { type: 'anthropic' }, openai: { type: 'openai' } } })

interface CorpusFile {
  /** e.g. claude/wshobson-agents/ai-engineer.md */
  rel: string
  host: 'claude' | 'opencode'
  /** where the test copied it */
  file: string
  /** the frontmatter as the test reads it (undefined when it does not parse) */
  raw?: Record<string, unknown>
}

const files: CorpusFile[] = []
for (const host of ['claude', 'opencode'] as const) {
  for (const collection of fs.readdirSync(path.join(CORPUS, host))) {
    for (const name of fs.readdirSync(path.join(CORPUS, host, collection)).filter((f) => f.endsWith('.md')).sort()) {
      files.push({ rel: `${host}/${collection}/${name}`, host, file: '' })
    }
  }
}

let root: string
const listings = new Map<string, { agents: AgentListEntry[]; errors: AgentLoadError[] }>()

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-corpus-')))
  const registry = new AgentRegistry({ dataDir: path.join(root, 'data') })
  try {
    // One workspace per collection (collections reuse names), each file where its host reads it.
    for (const collection of new Set(files.map((f) => path.dirname(f.rel)))) {
      const group = files.filter((f) => path.dirname(f.rel) === collection)
      const workdir = path.join(root, collection.replace('/', '-'))
      const folder = group[0].host === 'claude' ? path.join(workdir, '.claude', 'agents') : path.join(workdir, '.opencode', 'agent')
      fs.mkdirSync(folder, { recursive: true })
      for (const f of group) {
        const text = fs.readFileSync(path.join(CORPUS, f.rel), 'utf8')
        f.file = path.join(folder, path.basename(f.rel))
        fs.writeFileSync(f.file, text)
        f.raw = readFrontmatter(text)
      }
      const listing = listAgents(registry.resolve(workdir), CONFIG)
      listings.set(collection, listing)
    }
  } finally {
    registry.dispose()
  }
})
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

/** The author's frontmatter, read the way Claude Code does (first dash line closes it). */
function readFrontmatter(text: string): Record<string, unknown> | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const close = lines.findIndex((l, i) => i > 0 && /^-{3,}\s*$/.test(l))
  const doc = YAML.parseDocument(lines.slice(1, close).join('\n'))
  return doc.errors.length ? undefined : (doc.toJS() as Record<string, unknown>)
}

function entryFor(f: CorpusFile): AgentListEntry | undefined {
  return listings.get(path.dirname(f.rel))?.agents.find((a) => a.source.file === f.file)
}

/** Claude Code's `tools:` mapped through the documented table (names not available here dropped). */
function claudeAllowList(tools: unknown): string[] | undefined {
  const names = (typeof tools === 'string' ? tools.split(',') : Array.isArray(tools) ? (tools as string[]) : []).map((t) => t.trim()).filter(Boolean)
  if (names.length === 0 || names.includes('*')) return undefined
  const mapped = new Set(names.flatMap((n) => CLAUDE_TOOL_MAP[n] ?? []))
  return ALL.filter((t) => mapped.has(t))
}

/** Tools an opencode file switches off (`tools: {x: false}`) or denies outright in `permission(s)`, in the order they apply. */
function opencodeExcluded(raw: Record<string, unknown>): string[] {
  const state = new Map<string, boolean>()
  for (const [k, on] of Object.entries((raw.tools ?? {}) as Record<string, boolean>)) for (const t of OPENCODE_TOOL_MAP[k] ?? [k]) state.set(t, on)
  for (const key of ['permission', 'permissions']) {
    for (const [k, rule] of Object.entries((raw[key] ?? {}) as Record<string, unknown>)) {
      // Denied outright: `deny`, or only denies with a catch-all among them (`"**/*": deny`); `{"*.env": deny}` is not.
      const patterns = Object.entries(typeof rule === 'string' ? { '*': rule } : (rule as Record<string, string>))
      const denied = patterns.every(([, a]) => a === 'deny') && patterns.some(([p]) => ['*', '**', '**/*'].includes(p))
      for (const t of OPENCODE_TOOL_MAP[k] ?? [k]) state.set(t, !denied)
    }
  }
  return ALL.filter((t) => state.get(t) === false)
}

function expectedModel(model: unknown): string | null {
  if (model === undefined || model === 'inherit') return null
  const target = DEFAULT_MODEL_ALIASES[model as string] ?? (model as string)
  const provider = target.split('/')[0]
  return Object.hasOwn(CONFIG.providers, provider) ? target : null
}

describe('the agents corpus', () => {
  it('holds the 238 files its README lists', () => {
    expect(files).toHaveLength(238)
  })

  it.each(files.map((f) => [f.rel, f] as const))('%s', (_rel, f) => {
    const warnLine = YAML_RECOVERED[f.rel]
    if (warnLine !== undefined) {
      const entry = entryFor(f)
      expect(entry, `${f.rel} loads`).toBeDefined()
      expect(entry!.warnings).toContainEqual({ field: 'description', line: warnLine, reason: expect.stringMatching(/^the value is not valid YAML .* Quote it: description: "/) })
      expect(entry!.description).toMatch(/^Comprehensive Rails backend developer/)
      return
    }
    const agent = entryFor(f)
    expect(agent, `${f.rel} did not load: ${JSON.stringify(listings.get(path.dirname(f.rel))?.errors.filter((e) => e.file === f.file))}`).toBeDefined()
    if (!agent || !f.raw) throw new Error(`${f.rel}: the test could not read its frontmatter`)
    expect(agent.name).toMatch(AGENT_NAME_RE)
    expect(agent.description.length).toBeGreaterThan(0)

    if (f.host === 'claude') {
      expect(agent.mode).toBe(f.raw.mode ?? 'subagent')
      expect(agent.offeredTools).toEqual(claudeAllowList(f.raw.tools) ?? ALL)
      const mcp = (typeof f.raw.tools === 'string' ? f.raw.tools.split(',') : []).map((t) => t.trim()).filter((t) => t.startsWith('mcp__'))
      expect(agent.mcpTools ?? []).toEqual([...new Set(mcp)])
    } else {
      expect(agent.mode).toBe(f.raw.mode ?? 'all')
      const excluded = opencodeExcluded(f.raw)
      for (const t of excluded) expect(agent.offeredTools, `${t} must not be offered`).not.toContain(t)
      expect(agent.offeredTools).toEqual(ALL.filter((t) => !excluded.includes(t)))
    }

    expect(agent.resolvedModel.ref).toBe(expectedModel(f.raw.model))
    if (f.raw.model !== undefined && f.raw.model !== 'inherit' && expectedModel(f.raw.model) === null) {
      expect(agent.warnings.find((w) => w.field === 'model')?.reason).toMatch(/runs on the inherited model instead\. To use it, .*models: \{ aliases:/)
    }
  })
})
