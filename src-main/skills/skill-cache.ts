import fs from 'node:fs'
import path from 'node:path'
import type { SkillParse } from './parse-skill'

/** Bump when what a SKILL.md parses into changes: entries of older loaders are then ignored. */
export const SKILLS_LOADER_VERSION = 2
const MAX_ENTRIES = 5000

type Cached = { ok: true; skill: Omit<Extract<SkillParse, { ok: true }>['skill'], 'body'> } | Extract<SkillParse, { ok: false }>

interface CacheFile {
  loader: number
  entries: Record<string, { key: string; result: Cached }>
}

/**
 * Parsed SKILL.md frontmatters, kept on disk between processes (`{dataDir}/cache/skill-files.json`): skills are read
 * when every prompt starts and by every `agentry run`, and parsing 500 frontmatters costs ~150 ms where a stat each
 * costs a few. An entry holds while the file's mtime, ctime, size and inode (and its folder's name) are unchanged. The
 * body is never kept: the skill tool reads the file when it loads one. Losing the cache only costs time.
 */
export class SkillCache {
  private data: CacheFile | undefined
  private dirty = false

  constructor(private readonly file: string) {}

  static keyOf(stat: fs.Stats, folderName: string): string {
    return `${folderName}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.size}:${stat.ino}`
  }

  get(file: string, key: string): Cached | undefined {
    const entry = this.load().entries[file]
    return entry && entry.key === key ? entry.result : undefined
  }

  set(file: string, key: string, result: SkillParse): void {
    let kept: Cached = result
    if (result.ok) {
      const { body: _body, ...skill } = result.skill
      kept = { ok: true, skill }
    }
    this.load().entries[file] = { key, result: kept }
    this.dirty = true
  }

  /** Writes the cache if anything was parsed (atomically); a folder that cannot be written only costs speed. */
  flush(): void {
    if (!this.dirty || !this.data) return
    this.dirty = false
    const entries = Object.entries(this.data.entries)
    if (entries.length > MAX_ENTRIES) this.data.entries = Object.fromEntries(entries.slice(-MAX_ENTRIES))
    const tmp = `${this.file}.${process.pid}.tmp`
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true })
      fs.writeFileSync(tmp, JSON.stringify(this.data))
      fs.renameSync(tmp, this.file)
    } catch {
      fs.rmSync(tmp, { force: true })
    }
  }

  private load(): CacheFile {
    if (this.data) return this.data
    this.data = { loader: SKILLS_LOADER_VERSION, entries: {} }
    let text: string
    try {
      text = fs.readFileSync(this.file, 'utf8')
    } catch {
      // No cache yet: written once something is parsed (a data dir without skills gets no file).
      return this.data
    }
    try {
      const parsed = JSON.parse(text) as Partial<CacheFile>
      if (parsed?.loader === SKILLS_LOADER_VERSION && parsed.entries && typeof parsed.entries === 'object') this.data = parsed as CacheFile
      else this.dirty = true
    } catch {
      // A truncated or edited cache file: rewritten by the next flush.
      this.dirty = true
    }
    return this.data
  }
}

const caches = new Map<string, SkillCache>()

/** One cache per data dir and process: a host's prompts share it. */
export function skillCacheFor(dataDir: string): SkillCache {
  const file = path.join(dataDir, 'cache', 'skill-files.json')
  let c = caches.get(file)
  if (!c) caches.set(file, (c = new SkillCache(file)))
  return c
}
