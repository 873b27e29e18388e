import fs from 'node:fs'
import path from 'node:path'
import type { AgentInfo, AgentLoadError } from '../../src-shared'
import { AgentFolderCache } from './agent-folder'
import { BUILTIN_AGENTS } from './builtins'
import { FolderWatcher } from './folder-watcher'

export interface ResolvedAgents {
  /** every agent, built-ins first; an override keeps the position of the agent it replaces */
  agents: AgentInfo[]
  /** manifests that were skipped, with file, field and reason */
  errors: AgentLoadError[]
  byName: Map<string, AgentInfo>
}

const DEBOUNCE_MS = 50

/** `{workdir}/.agents/agents`, or — only when that folder does not exist — `{workdir}/.claude/agents`. */
export function projectAgentsDir(workdir: string): string {
  const preferred = path.join(workdir, '.agents', 'agents')
  return isDirectory(preferred) ? preferred : path.join(workdir, '.claude', 'agents')
}

export function userAgentsDir(dataDir: string): string {
  return path.join(dataDir, 'agents')
}

/**
 * Resolves the agents for a workspace: built-ins, then `{dataDir}/agents/*.md`, then the
 * project's folder; a later source replaces an earlier agent of the same name.
 * Folders are read through a cache, so calling `resolve()` before every prompt is cheap, and
 * edits take effect on the next call without a restart.
 */
export class AgentRegistry {
  private readonly dataDir: string
  private readonly cache = new AgentFolderCache()
  private readonly workdirs = new Map<string, FolderWatcher[]>()
  private readonly listeners = new Set<(workdir: string) => void>()
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private userWatcher: FolderWatcher | undefined
  private disposed = false

  constructor(opts: { dataDir: string }) {
    this.dataDir = path.resolve(opts.dataDir)
  }

  resolve(workdir: string): ResolvedAgents {
    const wd = path.resolve(workdir)
    this.watch(wd)
    const user = this.cache.load(userAgentsDir(this.dataDir), 'user')
    const project = this.cache.load(projectAgentsDir(wd), 'project')
    const byName = new Map<string, AgentInfo>()
    for (const agent of [...BUILTIN_AGENTS, ...user.agents, ...project.agents]) byName.set(agent.name, agent)
    return { agents: [...byName.values()], errors: [...user.errors, ...project.errors], byName }
  }

  /** `cb(workdir)` runs (debounced) after an agents folder relevant to a resolved workdir changes. */
  onChange(cb: (workdir: string) => void): () => void {
    this.listeners.add(cb)
    return () => this.listeners.delete(cb)
  }

  /** Closes every watcher and pending notification. `resolve()` keeps working, unwatched. */
  dispose(): void {
    this.disposed = true
    this.userWatcher?.close()
    for (const watchers of this.workdirs.values()) for (const w of watchers) w.close()
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.workdirs.clear()
    this.timers.clear()
    this.listeners.clear()
  }

  private watch(wd: string): void {
    if (this.disposed) return
    this.userWatcher ??= new FolderWatcher(this.dataDir, userAgentsDir(this.dataDir), () => {
      this.cache.markDirty(userAgentsDir(this.dataDir))
      for (const known of this.workdirs.keys()) this.notify(known)
    })
    this.userWatcher.arm()
    let watchers = this.workdirs.get(wd)
    if (!watchers) {
      const onProjectChange = () => {
        this.cache.markDirty(path.join(wd, '.agents', 'agents'))
        this.cache.markDirty(path.join(wd, '.claude', 'agents'))
        this.notify(wd)
      }
      watchers = [
        new FolderWatcher(wd, path.join(wd, '.agents', 'agents'), onProjectChange),
        new FolderWatcher(wd, path.join(wd, '.claude', 'agents'), onProjectChange),
      ]
      this.workdirs.set(wd, watchers)
    }
    for (const w of watchers) w.arm()
  }

  private notify(wd: string): void {
    if (this.disposed) return
    clearTimeout(this.timers.get(wd))
    const timer = setTimeout(() => {
      this.timers.delete(wd)
      for (const cb of [...this.listeners]) cb(wd)
    }, DEBOUNCE_MS)
    // Like the watchers: a pending notification must not keep a finished CLI process alive.
    timer.unref()
    this.timers.set(wd, timer)
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false
  } catch (err) {
    // Missing (or a path through a file) simply means "not a folder". Any other failure
    // (EACCES) means it exists: choose it, so its load error is reported instead of the
    // fallback folder being used behind the user's back.
    return !(err instanceof Error && 'code' in err && (err.code === 'ENOENT' || err.code === 'ENOTDIR'))
  }
}
