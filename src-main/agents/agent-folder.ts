import fs from 'node:fs'
import path from 'node:path'
import type { AgentFormat, AgentInfo, AgentLoadError } from '../../src-shared'
import { splitFrontmatter } from './frontmatter'
import { ParseCache } from './parse-cache'
import { MAX_AGENT_FILE_CHARS, parseManifest } from './parse-manifest'
import { errnoCode, isMissing, readText } from '../files'

export interface FolderAgents {
  /** agents in file order (relative path), each with whether its file disables it (opencode `disable: true`) */
  agents: { agent: AgentInfo; disabled: boolean }[]
  errors: AgentLoadError[]
  /** `.md` files found (recursively), loaded or not */
  fileCount: number
  /** the folder exists */
  exists: boolean
}

interface Listing {
  /** relative paths, times and sizes of the manifests: equal signature ⇒ nothing to re-read */
  signature: string
  files: { file: string; stat: fs.Stats }[]
  errors: AgentLoadError[]
  exists: boolean
}

const ABSENT: Listing = { signature: 'absent', files: [], errors: [], exists: false }

/**
 * Loads `**\/*.md` manifests from agent folders and remembers the result per folder.
 * A folder is re-read when its readdir+stat signature changes or a watcher marked it dirty
 * (the watcher catches a same-size rewrite within one mtime tick, which stat alone cannot).
 */
export class AgentFolderCache {
  private readonly entries = new Map<string, { signature: string; result: FolderAgents }>()
  private readonly dirty = new Set<string>()

  /** `parsed`: results kept between processes; without it every file is parsed once per process. */
  constructor(private readonly parsed?: ParseCache) {}

  markDirty(dir: string): void {
    this.dirty.add(dir)
  }

  load(dir: string, source: 'user' | 'project', format: AgentFormat): FolderAgents {
    const listing = listManifests(dir)
    const key = `${dir}\0${format}`
    const cached = this.entries.get(key)
    const watcherSaw = this.dirty.has(dir)
    if (cached && cached.signature === listing.signature && !watcherSaw) return cached.result
    // Clear before reading, so an event that lands during the read marks it dirty again.
    this.dirty.delete(dir)
    // A change only the watcher saw (same size, same timestamps) is read from the file, not the cache.
    const result = readManifests(listing, source, format, watcherSaw ? undefined : this.parsed)
    this.entries.set(key, { signature: listing.signature, result })
    return result
  }

  /** How many `.md` files a folder holds (for a folder that is shadowed and not read). */
  count(dir: string): number {
    return listManifests(dir).files.length
  }
}

function listManifests(dir: string): Listing {
  // Most agents folders do not exist; a stat that returns undefined is far cheaper than readdir's ENOENT exception,
  // and resolve() runs for every prompt and subagent spawn.
  if (!fs.statSync(dir, { throwIfNoEntry: false })) return ABSENT
  let entries: fs.Dirent[]
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true, recursive: true })
  } catch (err) {
    const code = errnoCode(err)
    // No folder means no agents from this source: the usual case, not a problem.
    if (isMissing(err)) return ABSENT
    const reason = `cannot read the agents folder (${code ?? String(err)}); check its permissions`
    return { signature: `error:${code}`, files: [], errors: [{ file: dir, field: 'folder', reason }], exists: true }
  }
  const found = entries
    .filter((e) => e.name.toLowerCase().endsWith('.md') && (e.isFile() || e.isSymbolicLink()))
    .map((e) => path.join(e.parentPath, e.name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const parts: string[] = []
  const files: Listing['files'] = []
  const errors: AgentLoadError[] = []
  for (const file of found) {
    const rel = path.relative(dir, file)
    let stat: fs.Stats
    try {
      stat = fs.statSync(file)
    } catch (err) {
      // Removed since readdir, or a dangling symlink: not a manifest.
      if (errnoCode(err) === 'ENOENT') continue
      errors.push({ file, field: 'file', reason: `cannot read the file (${errnoCode(err) ?? String(err)}); check it and its permissions` })
      parts.push(`${rel}:error`)
      continue
    }
    if (!stat.isFile()) continue // a symlink to a folder: not a manifest
    parts.push(`${rel}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.size}`)
    // Checked before reading: a huge file is refused without loading it into memory.
    if (stat.size > MAX_AGENT_FILE_CHARS) {
      errors.push({ file, field: 'file', reason: `the file is ${(stat.size / (1024 * 1024)).toFixed(1)} MiB; agent files are limited to 1 MiB, shorten the prompt` })
      continue
    }
    files.push({ file, stat })
  }
  return { signature: parts.join('|'), files, errors, exists: true }
}

function readManifests(listing: Listing, source: 'user' | 'project', format: AgentFormat, parsed: ParseCache | undefined): FolderAgents {
  const agents: FolderAgents['agents'] = []
  const errors = [...listing.errors]
  for (const { file, stat } of listing.files) {
    const key = ParseCache.keyOf(stat, `${format}:${source}`)
    const known = parsed?.get(file, key)
    if (known && 'errors' in known) {
      errors.push(...known.errors)
      continue
    }
    const read = readText(file)
    // Deleted between listing and reading: the next resolve lists the folder afresh.
    if (read.kind === 'missing') continue
    if (read.kind === 'unreadable') {
      errors.push({ file, field: 'file', reason: `cannot read the file (${read.reason}); check its permissions` })
      continue
    }
    const { text } = read
    // The cache keeps what the frontmatter says; the prompt is the file's own text below it.
    const split = known ? splitFrontmatter(text) : undefined
    if (known && split?.ok) {
      agents.push({ ...known, agent: { ...known.agent, prompt: split.body } })
      continue
    }
    const result = parseManifest(file, text, source, { format })
    parsed?.set(file, key, result)
    if ('errors' in result) errors.push(...result.errors)
    else agents.push(result)
  }
  return { agents, errors, fileCount: listing.files.length + listing.errors.length, exists: listing.exists }
}

