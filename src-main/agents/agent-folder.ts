import fs from 'node:fs'
import path from 'node:path'
import type { AgentFormat, AgentInfo, AgentLoadError } from '../../src-shared'
import { MAX_AGENT_FILE_CHARS, parseManifest } from './parse-manifest'

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
  /** relative paths, mtimes and sizes of the manifests: equal signature ⇒ nothing to re-read */
  signature: string
  files: string[]
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

  markDirty(dir: string): void {
    this.dirty.add(dir)
  }

  load(dir: string, source: 'user' | 'project', format: AgentFormat): FolderAgents {
    const listing = listManifests(dir)
    const key = `${dir}\0${format}`
    const cached = this.entries.get(key)
    if (cached && cached.signature === listing.signature && !this.dirty.has(dir)) return cached.result
    // Clear before reading, so an event that lands during the read marks it dirty again.
    this.dirty.delete(dir)
    const result = readManifests(listing, source, format)
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
    const code = errCode(err)
    // No folder means no agents from this source: the usual case, not a problem.
    if (code === 'ENOENT' || code === 'ENOTDIR') return ABSENT
    const reason = `cannot read the agents folder (${code ?? String(err)}); check its permissions`
    return { signature: `error:${code}`, files: [], errors: [{ file: dir, field: 'folder', reason }], exists: true }
  }
  const found = entries
    .filter((e) => e.name.toLowerCase().endsWith('.md') && (e.isFile() || e.isSymbolicLink()))
    .map((e) => path.join(e.parentPath, e.name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const parts: string[] = []
  const files: string[] = []
  const errors: AgentLoadError[] = []
  for (const file of found) {
    const rel = path.relative(dir, file)
    let stat: fs.Stats
    try {
      stat = fs.statSync(file)
    } catch (err) {
      // Removed since readdir, or a dangling symlink: not a manifest.
      if (errCode(err) === 'ENOENT') continue
      errors.push({ file, field: 'file', reason: `cannot read the file (${errCode(err) ?? String(err)}); check it and its permissions` })
      parts.push(`${rel}:error`)
      continue
    }
    if (!stat.isFile()) continue // a symlink to a folder: not a manifest
    parts.push(`${rel}:${stat.mtimeMs}:${stat.size}`)
    // Checked before reading: a huge file is refused without loading it into memory.
    if (stat.size > MAX_AGENT_FILE_CHARS) {
      errors.push({ file, field: 'file', reason: `the file is ${(stat.size / (1024 * 1024)).toFixed(1)} MiB; agent files are limited to 1 MiB, shorten the prompt` })
      continue
    }
    files.push(file)
  }
  return { signature: parts.join('|'), files, errors, exists: true }
}

function readManifests(listing: Listing, source: 'user' | 'project', format: AgentFormat): FolderAgents {
  const agents: FolderAgents['agents'] = []
  const errors = [...listing.errors]
  for (const file of listing.files) {
    let text: string
    try {
      text = fs.readFileSync(file, 'utf8')
    } catch (err) {
      // Deleted between listing and reading: the next resolve lists the folder afresh.
      if (errCode(err) === 'ENOENT') continue
      errors.push({ file, field: 'file', reason: `cannot read the file (${errCode(err) ?? String(err)}); check its permissions` })
      continue
    }
    const parsed = parseManifest(file, text, source, { format })
    if ('errors' in parsed) errors.push(...parsed.errors)
    else agents.push(parsed)
  }
  return { agents, errors, fileCount: listing.files.length + listing.errors.length, exists: listing.exists }
}

function errCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err ? String(err.code) : undefined
}
