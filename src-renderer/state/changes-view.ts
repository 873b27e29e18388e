import type { ChangeAuthor, RestoreOutcome, TurnChanges, TurnFileChange } from '../../src-shared'

/**
 * How the Changes panel, the Rewind action and the subagent card read `changes.list`: pure functions over the host's
 * answer (who changed a file, which messages can be rewound, which agents changed something).
 */

/** One author as the panel names it: `build › general › explore`, with `(bash)` when it changed the file through the shell. */
export function authorLabel(a: ChangeAuthor): string {
  const who = a.agentPath.join(' › ')
  return a.via === 'shell' ? `${who} (bash)` : who
}

/** A file's authors, each named once; "not by an agent" when none of the turn's agents could have written it. */
export function authorsText(authors: ChangeAuthor[]): string {
  if (authors.length === 0) return 'not by an agent'
  return [...new Set(authors.map(authorLabel))].join(', ')
}

const LETTER: Record<TurnFileChange['status'], string> = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R' }

/** The status letter of a file row (git's A/M/D/R). */
export function statusLetter(status: TurnFileChange['status']): string {
  return LETTER[status]
}

/** The path a row shows: `old → new` for a rename. */
export function displayPath(f: Pick<TurnFileChange, 'path' | 'oldPath' | 'status'>): string {
  return f.status === 'renamed' && f.oldPath ? `${f.oldPath} → ${f.path}` : f.path
}

/** `+3 −1`, or what stands in for line counts (binary files, nested repositories). */
export function fileStat(f: Pick<TurnFileChange, 'binary' | 'nested' | 'additions' | 'deletions'>): string {
  if (f.nested) return 'repository'
  if (f.binary) return 'binary'
  return `+${f.additions} −${f.deletions}`
}

/** Newest turn first, as the panel lists them. */
export function turnsNewestFirst(turns: TurnChanges[]): TurnChanges[] {
  return [...turns].reverse()
}


/** Child sessions (by id) that changed a file in a turn still applied, themselves or through an agent below them. */
export function agentsWithChanges(turns: TurnChanges[]): Set<string> {
  const ids = new Set<string>()
  for (const t of turns) {
    if (t.state !== 'applied') continue
    for (const f of t.files) for (const a of f.authors) for (const id of a.sessionPath.slice(1)) ids.add(id)
  }
  return ids
}

/** The files an agent (a child session) and those below it changed in turns still applied, each once, in order. */
export function filesOfAgent(turns: TurnChanges[], sessionId: string): string[] {
  const paths = new Set<string>()
  for (const t of turns) {
    if (t.state !== 'applied') continue
    for (const f of t.files) if (f.authors.some((a) => a.sessionPath.slice(1).includes(sessionId))) paths.add(f.path)
  }
  return [...paths]
}


/** `1 turn` / `3 turns`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** What a done undo/redo/revert wrote, for the notice: "2 files restored". */
export function restoredText(outcome: Pick<RestoreOutcome, 'steps'>): string {
  return outcome.steps.length === 0 ? 'no files needed restoring' : `${plural(outcome.steps.length, 'file')} restored`
}

/** Whether the plan refuses only for protected files, which the person may include explicitly. */
export function hasProtectedConflict(outcome: Pick<RestoreOutcome, 'conflicts'>): boolean {
  return outcome.conflicts.some((c) => c.reason === 'protected')
}

/** One hunk of a file's change as a unified diff of its own (file headers, then that hunk), for showing it alone. */
export function hunkPatch(file: Pick<TurnFileChange, 'path' | 'oldPath' | 'hunks'>, index: number): string {
  const h = file.hunks[index]
  const lines = h.lines.flatMap((l) => [`${l.kind === 'add' ? '+' : l.kind === 'delete' ? '-' : ' '}${l.text}`, ...(l.noNewlineAtEnd ? ['\\ No newline at end of file'] : [])])
  return [`--- a/${file.oldPath ?? file.path}`, `+++ b/${file.path}`, h.header, ...lines].join('\n') + '\n'
}
