import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AgentRegistry } from './index'
import { LOADER_VERSION } from './parse-cache'

let root: string
let dataDir: string
let workdir: string
let cacheFile: string
const agentFile = () => path.join(workdir, '.agents', 'agents', 'helper.md')

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-parse-cache-')))
  dataDir = path.join(root, 'data')
  workdir = path.join(root, 'work')
  cacheFile = path.join(dataDir, 'cache', 'agent-files.json')
  fs.mkdirSync(path.dirname(agentFile()), { recursive: true })
  fs.writeFileSync(agentFile(), '---\ndescription: helps\n---\nPrompt.\n')
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

/** What a new process sees: a fresh registry on the same data dir. */
function resolveFresh(opts: { persistParses?: boolean } = {}) {
  const registry = new AgentRegistry({ dataDir, ...opts })
  registry.dispose()
  return registry.resolve(workdir)
}

function editCachedDescription(to: string): void {
  const data = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as { entries: Record<string, { result: { agent: { description: string } } }> }
  data.entries[agentFile()].result.agent.description = to
  fs.writeFileSync(cacheFile, JSON.stringify(data))
}

describe('the parse cache between processes', () => {
  it('reuses the parsed file while it is unchanged, and parses it again once it changes', () => {
    expect(resolveFresh().byName.get('helper')?.description).toBe('helps')
    // The next process takes the entry from the cache (edited here to prove it was used)…
    editCachedDescription('from the cache')
    expect(resolveFresh().byName.get('helper')?.description).toBe('from the cache')
    // …until the file changes: any write changes its ctime, whatever its size and mtime.
    const { mtime } = fs.statSync(agentFile())
    fs.writeFileSync(agentFile(), '---\ndescription: HELPS\n---\nPrompt.\n')
    fs.utimesSync(agentFile(), mtime, mtime)
    expect(resolveFresh().byName.get('helper')?.description).toBe('HELPS')
  })

  it('ignores a corrupt cache or one from another loader version, and rewrites it', () => {
    resolveFresh()
    fs.writeFileSync(cacheFile, '{"loader": 1, "entr')
    expect(resolveFresh().byName.get('helper')?.description).toBe('helps')
    expect(JSON.parse(fs.readFileSync(cacheFile, 'utf8'))).toMatchObject({ loader: LOADER_VERSION })
    editCachedDescription('stale')
    const data = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as { loader: number }
    fs.writeFileSync(cacheFile, JSON.stringify({ ...data, loader: LOADER_VERSION - 1 }))
    expect(resolveFresh().byName.get('helper')?.description).toBe('helps')
  })

  it('caches load errors too, and writes nothing when asked not to persist', () => {
    fs.writeFileSync(agentFile(), '---\nmode: primary\n---\n')
    expect(resolveFresh().errors.map((e) => e.field)).toEqual(['description'])
    expect(resolveFresh().errors.map((e) => e.field)).toEqual(['description'])
    fs.rmSync(path.join(dataDir, 'cache'), { recursive: true })
    resolveFresh({ persistParses: false })
    expect(fs.existsSync(cacheFile)).toBe(false)
  })

  it('LOADER_VERSION is bumped whenever the loader changes (the sources below match the recorded hash)', () => {
    // What a file parses into is decided by these sources. Changed one? Bump LOADER_VERSION in parse-cache.ts
    // (so caches of the old loader are ignored), then record the new hash here.
    const sources = ['parse-manifest.ts', 'manifest-fields.ts', 'mcp-servers-field.ts', '../config/frontmatter-split.ts', '../config/frontmatter.ts', 'tool-names.ts', 'permission-builder.ts', '../config/yaml-text.ts', '../config/mcp-definitions.ts', '../../src-shared/agent.ts', '../../src-shared/agent-tools.ts', '../../src-shared/mcp.ts']
    const hash = createHash('sha256')
    for (const rel of sources) hash.update(fs.readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8').replace(/\r\n/g, '\n'))
    expect({ loader: LOADER_VERSION, sources: hash.digest('hex').slice(0, 16) }).toEqual({ loader: 12, sources: '94556a9691ec577d' })
  })
})
