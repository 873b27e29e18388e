import fs from 'node:fs'
import path from 'node:path'
import type { ManifestResult } from './parse-manifest'

/**
 * Bump when what an agent file parses into changes (fields, mappings, messages): cached results of older
 * loaders are then ignored. `parse-cache.test.ts` fails when the loader's sources change without a bump.
 */
export const LOADER_VERSION = 12

const MAX_ENTRIES = 5000
const FORGET_AFTER_MS = 30 * 24 * 3600_000

interface Entry {
  /** stat identity of the file when it was parsed, plus how it was read (folder format and scope) */
  key: string
  result: ManifestResult
  /** last time a resolve used it, for pruning entries of files that are gone */
  seenAt: number
}

interface CacheFile {
  loader: number
  entries: Record<string, Entry>
}

/**
 * Parsed agent files, kept on disk between processes (`{dataDir}/cache/agent-files.json`), so a CLI start does
 * not re-parse hundreds of unchanged frontmatters (prompts are not kept: the file is read for its prompt). A file's entry is used only while its mtime, ctime, size and inode
 * are unchanged (any write changes ctime) and the loader version matches; anything else is parsed afresh.
 * Losing the cache only costs time, so a missing or unreadable cache file is simply rebuilt.
 */
export class ParseCache {
  private data: CacheFile | undefined
  private dirty = false
  private warned = false

  constructor(private readonly file: string) {}

  static keyOf(stat: fs.Stats, how: string): string {
    return `${how}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.size}:${stat.ino}`
  }

  get(file: string, key: string): ManifestResult | undefined {
    const entry = this.load().entries[file]
    if (!entry || entry.key !== key) return undefined
    entry.seenAt = Date.now()
    return entry.result
  }

  /** Keeps what the frontmatter says; the prompt (most of a file) is read from the file itself on a hit. */
  set(file: string, key: string, result: ManifestResult): void {
    const kept: ManifestResult = 'errors' in result ? result : { ...result, agent: { ...result.agent, prompt: '' } }
    this.load().entries[file] = { key, result: kept, seenAt: Date.now() }
    this.dirty = true
  }

  /** Writes the cache if anything was parsed since the last write (atomically: a reader never sees half a file). */
  flush(): void {
    if (!this.dirty || !this.data) return
    this.dirty = false
    const now = Date.now()
    const kept = Object.entries(this.data.entries)
      .filter(([, e]) => now - e.seenAt < FORGET_AFTER_MS)
      .sort((a, b) => b[1].seenAt - a[1].seenAt)
      .slice(0, MAX_ENTRIES)
    this.data.entries = Object.fromEntries(kept)
    const tmp = `${this.file}.${process.pid}.tmp`
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true })
      fs.writeFileSync(tmp, JSON.stringify(this.data))
      fs.renameSync(tmp, this.file)
    } catch (err) {
      fs.rmSync(tmp, { force: true })
      // Agents still load correctly without the cache, only slower: say so once, and carry on.
      if (!this.warned) console.warn(`[agentry] could not write ${this.file} (${err instanceof Error ? err.message : String(err)}); agent files are parsed on every start`)
      this.warned = true
    }
  }

  private load(): CacheFile {
    if (this.data) return this.data
    this.data = { loader: LOADER_VERSION, entries: {} }
    let text: string
    try {
      text = fs.readFileSync(this.file, 'utf8')
    } catch (err) {
      // No cache yet (or unreadable): everything is parsed and the cache written afresh.
      if (!(err instanceof Error && 'code' in err)) throw err
      return this.data
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch (err) {
      // A truncated or edited cache file: ignore it; the next flush replaces it.
      if (!(err instanceof SyntaxError)) throw err
      this.dirty = true
      return this.data
    }
    if (isCacheFile(parsed) && parsed.loader === LOADER_VERSION) this.data = parsed
    else this.dirty = true
    return this.data
  }
}

function isCacheFile(v: unknown): v is CacheFile {
  return v !== null && typeof v === 'object' && 'loader' in v && 'entries' in v && typeof v.entries === 'object' && v.entries !== null
}
