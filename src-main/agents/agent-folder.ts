import fs from 'node:fs'
import path from 'node:path'
import type { AgentInfo, AgentLoadError } from '../../src-shared'
import { parseManifest } from './parse-manifest'

export interface FolderAgents {
  agents: AgentInfo[]
  errors: AgentLoadError[]
}

interface Listing {
  /** names, mtimes and sizes of the manifests: equal signature ⇒ nothing to re-read */
  signature: string
  files: string[]
  errors: AgentLoadError[]
}

/**
 * Loads `*.md` manifests from agent folders and remembers the result per folder.
 * A folder is re-read when its readdir+stat signature changes or a watcher marked it dirty
 * (the watcher catches a same-size rewrite within one mtime tick, which stat alone cannot).
 */
export class AgentFolderCache {
  private readonly entries = new Map<string, { signature: string; result: FolderAgents }>()
  private readonly dirty = new Set<string>()

  markDirty(dir: string): void {
    this.dirty.add(dir)
  }

  load(dir: string, source: 'user' | 'project'): FolderAgents {
    const listing = listManifests(dir)
    const cached = this.entries.get(dir)
    if (cached && cached.signature === listing.signature && !this.dirty.has(dir)) return cached.result
    // Clear before reading, so an event that lands during the read marks it dirty again.
    this.dirty.delete(dir)
    const result = readManifests(listing, source)
    this.entries.set(dir, { signature: listing.signature, result })
    return result
  }
}

function listManifests(dir: string): Listing {
  let entries: fs.Dirent[]
  // Most agents folders do not exist; a stat that returns undefined is far cheaper than readdir's ENOENT exception,
  // and resolve() runs for every prompt and subagent spawn.
  if (!fs.statSync(dir, { throwIfNoEntry: false })) return { signature: 'absent', files: [], errors: [] }
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true })
  } catch (err) {
    const code = errCode(err)
    // No folder means no agents from this source: the usual case, not a problem.
    if (code === 'ENOENT' || code === 'ENOTDIR') return { signature: 'absent', files: [], errors: [] }
    const reason = `cannot read the agents folder (${code ?? String(err)}); check its permissions`
    return { signature: `error:${code}`, files: [], errors: [{ file: dir, field: 'folder', reason }] }
  }
  const parts: string[] = []
  const files: string[] = []
  const errors: AgentLoadError[] = []
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!entry.name.endsWith('.md') || !(entry.isFile() || entry.isSymbolicLink())) continue
    const file = path.join(dir, entry.name)
    let stat: fs.Stats
    try {
      stat = fs.statSync(file)
    } catch (err) {
      // Removed since readdir, or a dangling symlink: not a manifest.
      if (errCode(err) === 'ENOENT') continue
      errors.push({ file, field: 'file', reason: `cannot read the file (${errCode(err) ?? String(err)}); check it and its permissions` })
      parts.push(`${entry.name}:error`)
      continue
    }
    if (!stat.isFile()) continue // a symlink to a folder is a subfolder: ignored
    files.push(file)
    parts.push(`${entry.name}:${stat.mtimeMs}:${stat.size}`)
  }
  return { signature: parts.join('|'), files, errors }
}

function readManifests(listing: Listing, source: 'user' | 'project'): FolderAgents {
  const agents: AgentInfo[] = []
  const errors = [...listing.errors]
  const seen = new Map<string, string>()
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
    const parsed = parseManifest(file, text, source)
    if ('errors' in parsed) {
      errors.push(...parsed.errors)
      continue
    }
    const earlier = seen.get(parsed.agent.name)
    if (earlier) {
      const reason = `duplicate agent name "${parsed.agent.name}", already defined in ${path.basename(earlier)}: rename one of them`
      errors.push({ file, field: 'name', reason })
      continue
    }
    seen.set(parsed.agent.name, file)
    agents.push(parsed.agent)
  }
  return { agents, errors }
}

function errCode(err: unknown): string | undefined {
  return err instanceof Error && 'code' in err ? String(err.code) : undefined
}
