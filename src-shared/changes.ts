import { z } from 'zod'
import { lazy } from './lazy'

/**
 * What agents changed in a workspace (issue 24): the diff of one file between two checkpoints, the turns of a
 * conversation with their changes and who made them, and the outcome of undo, redo and revert. One shape from the
 * checkpoint store to every client (app, CLI, editors).
 */

export const DiffLine = lazy(() =>
  z.object({
    kind: z.enum(['context', 'add', 'delete']),
    text: z.string(),
    oldLine: z.number().int().optional(),
    newLine: z.number().int().optional(),
    noNewlineAtEnd: z.literal(true).optional(),
  })
)
export type DiffLine = z.infer<typeof DiffLine>

export const Hunk = lazy(() =>
  z.object({
    header: z.string(),
    oldStart: z.number().int(),
    oldLines: z.number().int(),
    newStart: z.number().int(),
    newLines: z.number().int(),
    lines: z.array(DiffLine),
  })
)
export type Hunk = z.infer<typeof Hunk>

/** What happened to one path between two snapshots. */
export const FileChange = lazy(() =>
  z.object({
    path: z.string(),
    status: z.enum(['added', 'modified', 'deleted', 'renamed']),
    /** the path before a rename */
    oldPath: z.string().optional(),
    /** rename similarity in percent (100 = same content) */
    similarity: z.number().optional(),
    /** git's mode strings: '100644' file, '100755' executable, '120000' symlink, '160000' nested repository */
    oldMode: z.string().optional(),
    newMode: z.string().optional(),
    /** git said "Binary files differ": no hunks */
    binary: z.boolean(),
    /** a nested git repository: recorded as its HEAD commit only, never its files */
    nested: z.boolean(),
    additions: z.number().int(),
    deletions: z.number().int(),
    /** the unified diff as git printed it (headers included) */
    patch: z.string(),
    hunks: z.array(Hunk),
  })
)
export type FileChange = z.infer<typeof FileChange>

/** An agent of a conversation: agent names from the root down (`build › general › explore`) and its session path. */
export const ChangeAuthor = lazy(() =>
  z.object({
    agentPath: z.array(z.string()),
    /** session ids from the root down to this agent (opaque children included) */
    sessionPath: z.array(z.string()),
    /** how it changed the file: a file tool, or a shell command (matched by the files bash said it writes, or by elimination) */
    via: z.enum(['file tool', 'shell']),
  })
)
export type ChangeAuthor = z.infer<typeof ChangeAuthor>

/** One file a turn changed, with who changed it. No author: changed during the turn by something outside its agents. */
export const TurnFileChange = lazy(() => FileChange.extend({ authors: z.array(ChangeAuthor) }))
export type TurnFileChange = z.infer<typeof TurnFileChange>

/** One turn of a conversation, recorded as the workspace before and after it. */
export const TurnChanges = lazy(() =>
  z.object({
    checkpointId: z.string(),
    /** the person's message the turn worked on */
    messageId: z.string().nullable(),
    /** the start of that message's text, for a list */
    messagePreview: z.string(),
    startedAt: z.number(),
    endedAt: z.number().nullable(),
    /** applied: its changes are in the workspace; undone: taken back (Redo puts them back); expired: its snapshots were dropped (checkpoints.keepDays) */
    state: z.enum(['running', 'applied', 'undone', 'expired']),
    files: z.array(TurnFileChange),
    /** why the turn has no record of its changes (the snapshot failed), when it has none */
    error: z.string().optional(),
  })
)
export type TurnChanges = z.infer<typeof TurnChanges>

/** A path undo/redo/revert would write, and what to. */
export const RestoreStep = lazy(() =>
  z.object({
    path: z.string(),
    action: z.enum(['restore', 'delete', 'recreate']),
    /** a protected location (agent files, rules, hooks): written only when the person confirms it explicitly */
    protected: z.string().optional(),
  })
)
export type RestoreStep = z.infer<typeof RestoreStep>

/** Why a path cannot be put back: someone changed it since, or something on disk is in the way. */
export const RestoreConflict = lazy(() =>
  z.object({
    path: z.string(),
    reason: z.enum(['changed since', 'deleted since', 'created since', 'in the way', 'unsafe', 'changed between turns', 'protected']),
    /** one line for a person */
    detail: z.string(),
  })
)
export type RestoreConflict = z.infer<typeof RestoreConflict>

/** The plan (dry run) or outcome of undo, redo or revert: all or nothing. */
export const RestoreOutcome = lazy(() =>
  z.object({
    /** false: nothing was written (conflicts, or a dry run) */
    applied: z.boolean(),
    steps: z.array(RestoreStep),
    conflicts: z.array(RestoreConflict),
    /** paths left alone by design (nested repositories, changes made outside the agents) */
    skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
    /** the messages hidden (undo) or shown again (redo) */
    messageIds: z.array(z.string()),
  })
)
export type RestoreOutcome = z.infer<typeof RestoreOutcome>

/** `checkpoints:` in the person's config.yaml (a workspace cannot turn its own undo off). */
export const CheckpointSettings = lazy(() =>
  z
    .object({
      /** snapshot the workspace around every turn (undo, redo, the Changes view); off → no undo for new turns */
      enabled: z.boolean().default(true),
      /** a turn's snapshots are dropped this many days after it (what bounds the store); its row stays, marked expired */
      keepDays: z.number().int().min(1).max(3650).default(30),
    })
    .strict()
)
export type CheckpointSettings = z.infer<typeof CheckpointSettings>
