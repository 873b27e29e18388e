import fs from 'node:fs'
import path from 'node:path'
import type { AgentFormat } from '../../src-shared'
import { isMissing } from '../files'

export interface AgentFolder {
  dir: string
  kind: 'user' | 'project'
  format: AgentFormat
}

export interface ScopeFolders {
  /** read, in this order: Agentry's (or Claude Code's) folder, then opencode's two */
  read: AgentFolder[]
  /** `.claude/agents` when Agentry's folder exists too: not read, and reported */
  shadowed: { folder: AgentFolder; by: string }[]
  /** every folder of the scope, existing or not (what the watchers cover) */
  all: string[]
}

/**
 * The agent folders of one scope. A workspace: `.agents/agents/`, else (only when that folder does not exist)
 * `.claude/agents/`; and always `.opencode/agent/` and `.opencode/agents/`. The data dir holds the same set with
 * `agents/` in place of `.agents/agents/`. All are read recursively (`**\/*.md`).
 */
export function scopeFolders(base: string, kind: 'user' | 'project'): ScopeFolders {
  const own = kind === 'project' ? path.join(base, '.agents', 'agents') : path.join(base, 'agents')
  const claude = path.join(base, '.claude', 'agents')
  const opencode = [path.join(base, '.opencode', 'agent'), path.join(base, '.opencode', 'agents')]
  const ownExists = isDirectory(own)
  const first: AgentFolder = ownExists ? { dir: own, kind, format: 'agentry' } : { dir: claude, kind, format: 'claude' }
  const shadowed = ownExists && isDirectory(claude) ? [{ folder: { dir: claude, kind, format: 'claude' as const }, by: own }] : []
  return {
    read: [first, ...opencode.map((dir) => ({ dir, kind, format: 'opencode' as const }))],
    shadowed,
    all: [own, claude, ...opencode],
  }
}

/** Where a new agent file of this scope goes: the folder that is read (`.agents/agents` when neither exists). */
export function newAgentFolder(base: string, kind: 'user' | 'project'): string {
  const own = kind === 'project' ? path.join(base, '.agents', 'agents') : path.join(base, 'agents')
  const claude = path.join(base, '.claude', 'agents')
  return !isDirectory(own) && isDirectory(claude) ? claude : own
}

export function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false
  } catch (err) {
    // Missing (or a path through a file) simply means "not a folder". Any other failure
    // (EACCES) means it exists: choose it, so its load error is reported instead of the
    // fallback folder being used behind the user's back.
    return !isMissing(err)
  }
}
