import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import type { McpServerConfig } from '../../src-shared'
import type { ToolListing } from './list-tools'
import { readTextIfPresent } from '../files'

const CacheFile = z.object({
  version: z.literal(1),
  servers: z.record(
    z.string(),
    z.object({
      at: z.number(),
      tools: z.array(z.object({ name: z.string(), fullName: z.string(), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) })),
      skipped: z.array(z.string()),
    }),
  ),
})
type CacheFile = z.infer<typeof CacheFile>

/** Lists older than this are dropped when the file is next written (servers long gone, workspaces moved). */
const MAX_AGE_MS = 30 * 24 * 3600_000

/**
 * The last tool list of each server definition (`{dataDir}/cache/mcp-tools.json`, owner-only), keyed by workspace,
 * name and the definition itself. With it a run offers a server's tools without starting it: the server starts on
 * the first call. A changed definition has another key, so it is listed afresh. Safe to delete.
 */
export class ToolCache {
  readonly file: string
  private data: CacheFile | undefined

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'cache', 'mcp-tools.json')
  }

  static key(workdir: string, name: string, config: McpServerConfig): string {
    return crypto.createHash('sha256').update(JSON.stringify([workdir, name, config])).digest('hex').slice(0, 32)
  }

  get(key: string): ToolListing | null {
    const entry = this.load().servers[key]
    return entry ? { tools: entry.tools, skipped: entry.skipped } : null
  }

  set(key: string, listing: ToolListing): void {
    // Another process (the app, a CLI run) may have written since: merge into what is on disk now.
    this.data = undefined
    const data = this.load()
    const now = Date.now()
    for (const [k, v] of Object.entries(data.servers)) if (now - v.at > MAX_AGE_MS) delete data.servers[k]
    data.servers[key] = { at: now, tools: listing.tools, skipped: listing.skipped }
    fs.mkdirSync(path.dirname(this.file), { recursive: true })
    const tmp = `${this.file}.${process.pid}.tmp`
    fs.writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 })
    fs.renameSync(tmp, this.file)
  }

  private load(): CacheFile {
    if (this.data) return this.data
    let parsed: CacheFile | undefined
    // No cache yet, or a damaged one: servers are simply listed again when they start.
    const text = readTextIfPresent(this.file)
    try {
      if (text !== undefined) parsed = CacheFile.safeParse(JSON.parse(text)).data
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err
    }
    this.data = parsed ?? { version: 1, servers: {} }
    return this.data
  }
}
