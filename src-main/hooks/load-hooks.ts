import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'
import { HOOK_EVENTS, type HookEventName, type HookInfo, type HookProblem } from '../../src-shared'
import { parseYamlText } from '../config'
import { readText } from '../files'
import { compileMatcher, type Matcher } from './matcher'

export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60

/** A hook ready to run: what Settings shows, plus its compiled matcher. */
export interface Hook extends HookInfo {
  event: HookEventName
  match: Matcher
}

/** Every hook of a run, read once when its prompt starts (the run's settings snapshot), by event. */
export interface HookSet {
  byEvent: ReadonlyMap<HookEventName, readonly Hook[]>
  /** every hook read, the inactive (untrusted workspace) ones included, for Settings */
  all: readonly Hook[]
  problems: readonly HookProblem[]
}

export const NO_HOOKS: HookSet = { byEvent: new Map(), all: [], problems: [] }

/** Claude Code events Agentry knows of but does not run: said, not dropped. */
const NOT_RUN: Readonly<Record<string, string>> = {
  PermissionRequest: 'approvals are decided by your rules and the approval dialog here',
  WorktreeCreate: "Agentry makes a task's worktree itself",
  WorktreeRemove: "Agentry removes a task's worktree itself",
  TeammateIdle: 'Agentry has no agent teams',
  TaskCompleted: 'Agentry has no agent teams; use SubagentStop',
  ConfigChange: 'Agentry re-reads its configuration when each prompt starts',
}

const HookEntry = z.object({ type: z.string(), command: z.string().optional(), timeout: z.number().positive().optional() }).passthrough()
const MatcherGroup = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) }).passthrough()

export interface HookFile {
  file: string
  /** settings.json (hooks at the top) or config.yaml (`hooks:` key); both the same shape */
  format: 'json' | 'yaml'
  /** a workspace's file: its hooks run only once the person trusts the workspace */
  workspace: boolean
}

/** Where hooks are read from, in order: the person's, then the workspace's (Claude Code's files, then Agentry's). */
export function hookFiles(o: { dataDir: string; workdir?: string; home?: string }): HookFile[] {
  const home = o.home ?? os.homedir()
  const files: HookFile[] = [
    { file: path.join(home, '.claude', 'settings.json'), format: 'json', workspace: false },
    { file: path.join(o.dataDir, 'config.yaml'), format: 'yaml', workspace: false },
  ]
  if (o.workdir) {
    files.push(
      { file: path.join(o.workdir, '.claude', 'settings.json'), format: 'json', workspace: true },
      { file: path.join(o.workdir, '.claude', 'settings.local.json'), format: 'json', workspace: true },
      { file: path.join(o.workdir, '.agents', 'config.yaml'), format: 'yaml', workspace: true },
    )
  }
  return files
}

/** Reads every hook file; a bad part becomes a problem naming file, field and fix, and the rest still loads. */
export function loadHooks(files: readonly HookFile[], o: { trusted: boolean }): HookSet {
  const all: Hook[] = []
  const problems: HookProblem[] = []
  for (const f of files) {
    const section = readSection(f, problems)
    if (section === undefined) continue
    all.push(...parseHooksSection(section, { file: f.file, active: !f.workspace || o.trusted }, problems))
  }
  const byEvent = new Map<HookEventName, Hook[]>()
  for (const h of all) if (h.active) byEvent.set(h.event, [...(byEvent.get(h.event) ?? []), h])
  return { byEvent, all, problems }
}

function readSection(f: HookFile, problems: HookProblem[]): unknown {
  const read = readText(f.file)
  if (read.kind === 'missing') return undefined
  if (read.kind === 'unreadable') {
    problems.push({ file: f.file, path: '', reason: `cannot read the file (${read.reason}); its hooks do not run until it can be read` })
    return undefined
  }
  let value: unknown
  if (f.format === 'json') {
    try {
      value = JSON.parse(read.text)
    } catch (err) {
      problems.push({ file: f.file, path: '', reason: `not valid JSON (${(err as Error).message}); fix the file — none of its hooks run meanwhile` })
      return undefined
    }
  } else {
    const parsed = parseYamlText(read.text)
    // config.yaml's own loader reports its syntax errors; hooks simply are not read from it.
    if (!parsed.ok) return undefined
    value = parsed.value
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined
  const v = value as Record<string, unknown>
  if (v.disableAllHooks === true && v.hooks !== undefined) {
    problems.push({ file: f.file, path: 'disableAllHooks', reason: 'is true, so the hooks of this file do not run; remove it to run them' })
    return undefined
  }
  return v.hooks
}

/** One file's `hooks` object: `{ Event: [{ matcher, hooks: [{ type: "command", command, timeout }] }] }`. */
export function parseHooksSection(section: unknown, o: { file: string; active: boolean }, problems: HookProblem[]): Hook[] {
  const { file } = o
  const out: Hook[] = []
  if (!section || typeof section !== 'object' || Array.isArray(section)) {
    problems.push({ file, path: 'hooks', reason: 'must be an object of events, e.g. { "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "…" } ] } ] }' })
    return out
  }
  for (const [event, groups] of Object.entries(section)) {
    const at = `hooks.${event}`
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      const why = NOT_RUN[event]
      problems.push({ file, path: at, reason: why ? `${event} hooks do not run in Agentry (${why}); they are ignored` : `unknown event "${event}"; the events are ${HOOK_EVENTS.join(', ')} (names are case-sensitive)` })
      continue
    }
    if (!Array.isArray(groups)) {
      problems.push({ file, path: at, reason: 'must be a list of { "matcher": …, "hooks": [ … ] } groups' })
      continue
    }
    groups.forEach((g, gi) => {
      const group = MatcherGroup.safeParse(g)
      if (!group.success) {
        problems.push({ file, path: `${at}[${gi}]`, reason: 'must be { "matcher": "<tool name or regex>", "hooks": [ { "type": "command", "command": "…" } ] }' })
        return
      }
      const compiled = compileMatcher(group.data.matcher)
      if (!compiled.ok) {
        problems.push({ file, path: `${at}[${gi}].matcher`, reason: compiled.reason })
        return
      }
      group.data.hooks.forEach((h, hi) => {
        const where = `${at}[${gi}].hooks[${hi}]`
        const entry = HookEntry.safeParse(h)
        if (!entry.success) {
          const bad = entry.error.issues[0]
          problems.push({ file, path: bad?.path[0] === 'timeout' ? `${where}.timeout` : where, reason: bad?.path[0] === 'timeout' ? 'must be a positive number of seconds' : 'must be { "type": "command", "command": "…", "timeout": <seconds> }' })
          return
        }
        if (entry.data.type !== 'command') {
          problems.push({ file, path: `${where}.type`, reason: `"${entry.data.type}" hooks do not run in Agentry; only "command" hooks do — this one is ignored` })
          return
        }
        if (!entry.data.command?.trim()) {
          problems.push({ file, path: `${where}.command`, reason: 'is missing or empty; give the shell command to run' })
          return
        }
        out.push({
          event: event as HookEventName,
          matcher: (group.data.matcher ?? '').trim(),
          match: compiled.match,
          command: entry.data.command,
          timeoutSeconds: entry.data.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
          source: file,
          active: o.active,
        })
      })
    })
  }
  return out
}

/** Hooks for this event whose matcher fits `subject` (a tool name, a session source, an agent type). */
export function matchingHooks(set: HookSet, event: HookEventName, subject: string): Hook[] {
  const list = set.byEvent.get(event)
  if (!list) return []
  const hits = list.filter((h) => h.match(subject))
  // Claude Code runs an identical command once, however many groups name it.
  const seen = new Set<string>()
  return hits.filter((h) => !seen.has(h.command) && Boolean(seen.add(h.command)))
}
