import path from 'node:path'
import type { AgentFolderInfo, AgentInfo, AgentLoadError, AgentWarning } from '../../src-shared'
import { AgentFolderCache } from './agent-folder'
import { scopeFolders } from './agent-folders'
import { BUILTIN_AGENTS, DEFAULT_AGENT } from './builtins'
import { FolderWatcher } from './folder-watcher'
import { ParseCache } from './parse-cache'
import { toSlug } from './parse-manifest'

export interface ResolvedAgents {
  /** every agent, built-ins first; an override keeps the position of the agent it replaces */
  agents: AgentInfo[]
  /** manifests that were skipped, with file, field, line and reason */
  errors: AgentLoadError[]
  byName: Map<string, AgentInfo>
  /** the agent folders that exist, read or shadowed */
  folders: AgentFolderInfo[]
  /** agents a file removes on purpose (opencode's `disable: true`) */
  disabled: { name: string; file: string }[]
}

const DEBOUNCE_MS = 50

/**
 * Resolves the agents for a workspace: built-ins, then the data dir's agent folders, then the workspace's; a later
 * scope replaces an earlier agent of the same name (with a notice on the agent). Folders are read through a cache,
 * so calling `resolve()` before every prompt is cheap, and edits take effect on the next call without a restart.
 */
export class AgentRegistry {
  private readonly dataDir: string
  private readonly parsed: ParseCache | undefined
  private readonly cache: AgentFolderCache
  private readonly workdirs = new Map<string, FolderWatcher[]>()
  private readonly listeners = new Set<(workdir: string) => void>()
  private readonly timers = new Map<string, NodeJS.Timeout>()
  private userWatchers: FolderWatcher[] | undefined
  private disposed = false

  /**
   * `persistParses` (default true): keep parsed files in `{dataDir}/cache/` so the next process need not re-parse
   * them. `watch` (default true): false for a one-shot listing (`agentry agents`), which needs no change events.
   */
  constructor(opts: { dataDir: string; persistParses?: boolean; watch?: boolean }) {
    this.dataDir = path.resolve(opts.dataDir)
    this.disposed = opts.watch === false
    this.parsed = opts.persistParses === false ? undefined : new ParseCache(path.join(this.dataDir, 'cache', 'agent-files.json'))
    this.cache = new AgentFolderCache(this.parsed)
  }

  resolve(workdir: string): ResolvedAgents {
    const wd = path.resolve(workdir)
    this.watch(wd)
    const byName = new Map<string, AgentInfo>(BUILTIN_AGENTS.map((a) => [a.name, a]))
    const out: Omit<ResolvedAgents, 'agents' | 'byName'> = { errors: [], folders: [], disabled: [] }
    for (const [base, kind] of [[this.dataDir, 'user'], [wd, 'project']] as const) this.loadScope(base, kind, byName, out)
    this.parsed?.flush()
    return { agents: [...byName.values()], byName, ...out }
  }

  /** `cb(workdir)` runs (debounced) after an agents folder relevant to a resolved workdir changes. */
  onChange(cb: (workdir: string) => void): () => void {
    this.listeners.add(cb)
    return () => this.listeners.delete(cb)
  }

  /** Closes every watcher and pending notification. `resolve()` keeps working, unwatched. */
  dispose(): void {
    this.disposed = true
    for (const w of this.userWatchers ?? []) w.close()
    for (const watchers of this.workdirs.values()) for (const w of watchers) w.close()
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.workdirs.clear()
    this.timers.clear()
    this.listeners.clear()
  }

  /** One scope's folders into `byName`: duplicates within the scope are told apart, overrides get a notice. */
  private loadScope(base: string, kind: 'user' | 'project', byName: Map<string, AgentInfo>, out: Omit<ResolvedAgents, 'agents' | 'byName'>): void {
    const folders = scopeFolders(base, kind)
    const entries: { agent: AgentInfo; disabled: boolean }[] = []
    for (const folder of folders.read) {
      const loaded = this.cache.load(folder.dir, kind, folder.format)
      out.errors.push(...loaded.errors)
      if (loaded.exists) out.folders.push({ ...folder, status: 'read', files: loaded.fileCount })
      entries.push(...loaded.agents)
    }
    // A file named like its agent owns that name; another file claiming it gives way (and loads under its file name).
    const seen = new Map<string, string>()
    const named = new Map<(typeof entries)[number], AgentInfo | undefined>()
    const owns = (e: (typeof entries)[number]) => fileSlug(e.agent) === e.agent.name
    for (const e of [...entries.filter(owns), ...entries.filter((x) => !owns(x))]) {
      const agent = distinctName(e.agent, seen, out.errors)
      if (agent) seen.set(agent.name, agent.source.file ?? '')
      named.set(e, agent)
    }
    for (const e of entries) {
      const agent = named.get(e)
      if (!agent) continue
      if (e.disabled) {
        out.disabled.push({ name: agent.name, file: agent.source.file ?? base })
        // The default agent must exist: a file cannot remove it, only replace it.
        if (agent.name !== DEFAULT_AGENT) byName.delete(agent.name)
        continue
      }
      const replaced = byName.get(agent.name)
      byName.set(agent.name, replaced ? withWarning(agent, overrideNotice(replaced)) : agent)
    }
    for (const { folder, by } of folders.shadowed) {
      const files = this.cache.count(folder.dir)
      out.folders.push({ ...folder, status: 'shadowed', files, shadowedBy: by })
    }
  }

  private watch(wd: string): void {
    if (this.disposed) return
    this.userWatchers ??= this.watchersFor(this.dataDir, 'user', () => {
      for (const known of this.workdirs.keys()) this.notify(known)
    })
    for (const w of this.userWatchers) w.arm()
    let watchers = this.workdirs.get(wd)
    if (!watchers) {
      watchers = this.watchersFor(wd, 'project', () => this.notify(wd))
      this.workdirs.set(wd, watchers)
    }
    for (const w of watchers) w.arm()
  }

  private watchersFor(base: string, kind: 'user' | 'project', notify: () => void): FolderWatcher[] {
    const dirs = scopeFolders(base, kind).all
    const onChange = () => {
      for (const dir of dirs) this.cache.markDirty(dir)
      notify()
    }
    return dirs.map((dir) => new FolderWatcher(base, dir, onChange))
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

/**
 * Two files of one scope with the same name: the later one loads under its file name when that is free (a
 * copied file whose `name:` was not changed), else it is skipped with an error naming both files.
 */
function distinctName(agent: AgentInfo, seen: Map<string, string>, errors: AgentLoadError[]): AgentInfo | undefined {
  const earlier = seen.get(agent.name)
  if (!earlier) return agent
  const file = agent.source.file ?? ''
  const fromFile = fileSlug(agent)
  if (fromFile && !seen.has(fromFile)) {
    const reason = `the name "${agent.name}" is already used by ${path.relative(path.dirname(file), earlier)}; loaded as "${fromFile}" (the file name); give it a name: of its own`
    return { ...withWarning(agent, { field: 'name', reason }), name: fromFile, displayName: agent.displayName ?? agent.name }
  }
  errors.push({ file, field: 'name', reason: `duplicate agent name "${agent.name}", already defined in ${path.relative(path.dirname(file), earlier)}: rename one of them` })
  return undefined
}

function fileSlug(agent: AgentInfo): string {
  return toSlug(path.basename(agent.source.file ?? '').replace(/\.md$/i, ''))
}

function overrideNotice(replaced: AgentInfo): AgentWarning {
  const what = replaced.source.kind === 'builtin' ? `the built-in agent "${replaced.name}"` : `the ${replaced.source.kind} agent in ${replaced.source.file}`
  return { field: 'name', reason: `replaces ${what}; rename this file's agent to keep both` }
}

function withWarning(agent: AgentInfo, warning: AgentWarning): AgentInfo {
  return { ...agent, warnings: [...agent.warnings, warning] }
}
