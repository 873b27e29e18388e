import type { JSONSchema7 } from '@ai-sdk/provider'
import { z } from 'zod'
import type { SandboxPolicy } from '../sandbox'
import type { ContainerHandle } from '../containers'

/** What a tool asks the permission gate about. The permission module turns it into rule lookups. */
export interface PermissionAsk {
  kind: 'path' | 'command' | 'host' | 'name' | 'other'
  /**
   * file tools → workspace-relative paths (absolute if outside); glob/grep → the search
   * pattern and path; web_fetch → URL host; bash → the whole command line (the permission
   * module splits it into sub-commands).
   */
  subjects: string[]
  outsideWorkspace?: boolean
  /**
   * The tool whose rules judge this ask; default: the calling tool. A bash redirect target (`> out.txt`) is
   * judged as a `write_file` of that path, so file rules and workspace confinement apply to it as well.
   */
  tool?: string
  /** What the call does to a path subject. Writes to protected configuration always ask (see permissions). */
  access?: 'read' | 'write'
  /** bash: the line is read-only (parser-judged) and the workspace files it may read; see tools/bash-read-only.ts */
  readOnly?: { reads: string[] }
}

export const TodoStatus = z.enum(['pending', 'in_progress', 'completed'])
export type TodoStatus = z.infer<typeof TodoStatus>

export const Todo = z.object({
  content: z.string().min(1).describe('What to do, as a short imperative sentence.'),
  status: TodoStatus.describe('pending, in_progress (at most one at a time) or completed.'),
})
export type Todo = z.infer<typeof Todo>

/** Everything a tool may touch. Tools never see the store, the permission service or sessions. */
export interface ToolContext {
  /** a child with `isolation: container`: bash runs in this container (absent: on the host, in the sandbox) */
  container?: ContainerHandle
  sessionId: string
  rootSessionId: string
  messageId: string
  toolCallId: string
  /** agent name running the tool */
  agent: string
  /** absolute, realpath'd */
  workdir: string
  signal: AbortSignal
  /**
   * where the full text of this session's truncated outputs is saved (absolute, one folder per session); read_file
   * reads it back only through a `tool-output://NAME` reference, so no other session can reach it
   */
  overflowDir: string
  /**
   * a hook asked that the person approve this call (issue 27): the gate asks even where the rules allow it, and
   * runTool goes through the gate even for a tool that makes no permission ask
   */
  mustAsk?: string
  /**
   * permission gate; resolves when allowed, or returns a denial message for the model. Several asks (a command
   * and the files it writes) are decided together: any deny denies, else any ask asks once for all of them.
   */
  authorize(
    ask: PermissionAsk | PermissionAsk[],
    display?: { summary: string; diff?: string },
  ): Promise<{ ok: true } | { ok: false; message: string }>
  /**
   * What the rules alone say about `ask`, asking no one ('allow' | 'ask' | 'deny'; several asks: the most
   * restrictive). Tools use it for checks per file (grep skips a file read_file could not read without asking) and
   * per redirect hop. With `named`, 'allow' needs more than a catch-all: a rule for exactly this tool whose pattern
   * names the subject (not `*` or `**`), in the person's rules or their "Always allow" answers — for what no
   * blanket grant may open, such as a loopback address for web_fetch.
   */
  checkRules(ask: PermissionAsk | PermissionAsk[], opts?: { named?: boolean }): 'allow' | 'ask' | 'deny'
  setTodos(todos: Todo[]): void
  /** rejects (Error with message) when headless */
  askUser(question: string, options?: string[]): Promise<string>
  /** `headless`: nobody can review a plan in this run (`agentry run`) */
  planExit(plan: string): Promise<{ approved: boolean; feedback?: string; headless?: boolean }>
  emitProgress?(text: string): void
  /** how bash commands are confined (from the person's settings and rules); absent → sandboxed, no network */
  sandbox?: SandboxPolicy
  /** the editor driving this conversation, when it shows the files (read_file, edit_file and write_file use it) */
  editorFiles?: EditorFiles
}

/**
 * An editor that shows the files (an ACP client such as Zed): reads see its unsaved buffers, writes land in them. A
 * port the transport passes to the host; tools use it only after the permission gate judged the real path, which is
 * the path they hand over. Either method may be missing (the editor offers only one).
 */
export interface EditorFiles {
  readText?(absPath: string): Promise<string>
  writeText?(absPath: string, content: string): Promise<void>
}

export interface ToolResult {
  output: string
  metadata?: Record<string, unknown>
}

export interface ToolDisplay {
  summary: string
  diff?: string
}

export interface ToolDef<P extends z.ZodType = z.ZodType> {
  name: string
  /** what the model reads to decide when and how to call the tool */
  description: string
  parameters: P
  /**
   * The JSON schema the model sees, when it is not derived from `parameters`: a tool defined elsewhere (an MCP
   * server's) passes its own schema as given, and checks arguments against it in `validate`.
   */
  inputSchema?: JSONSchema7
  /** A check of the parsed arguments beyond `parameters`, before any permission is asked; a message on failure. */
  validate?(input: z.infer<P>): Promise<string | null>
  /**
   * Loads, once per process, what `permission` needs and is too costly to load when the host starts (the bash
   * grammar): awaited before every permission check, so the first call pays for it and later ones do not.
   */
  prepare?(): Promise<void>
  /** null = no check needed; several asks are decided together (see ToolContext.authorize) */
  permission(input: z.infer<P>, ctx: ToolContext): PermissionAsk | PermissionAsk[] | null
  /** what the approval dialog shows (a summary and, for edits, a diff) */
  display?(input: z.infer<P>, ctx: ToolContext): Promise<ToolDisplay> | ToolDisplay
  execute(input: z.infer<P>, ctx: ToolContext): Promise<ToolResult>
  /** output size above which runTool truncates; defaults to DEFAULT_MAX_OUTPUT_CHARS */
  maxOutputChars?: number
}

/**
 * A failure the model caused and can fix (bad path, no match, …). runTool shows only its
 * message; any other thrown error is shown too, but this marks the expected ones.
 */
export class ToolError extends Error {
  override readonly name = 'ToolError'
  /**
   * The message already says how an abort ended the call (the `task` tool's `<task_error …>aborted: …`, with the
   * child's id so the model can resume it): runTool shows it instead of its generic "Aborted" text.
   */
  readonly describesAbort: boolean
  constructor(message: string, options: { describesAbort?: boolean } = {}) {
    super(message)
    this.describesAbort = options.describesAbort === true
  }
  static isInstance(e: unknown): e is ToolError {
    return e instanceof Error && e.name === 'ToolError'
  }
}

/** Identity helper so each tool file gets its input type inferred from its zod schema. */
export function defineTool<P extends z.ZodType>(def: ToolDef<P>): ToolDef<P> {
  return def
}

/**
 * Why a signal was aborted, as its reason says (a runner's Stop, a timeout, the host stopping); undefined for a plain
 * abort with no reason of its own. The loop and the tool wrapper read it the same way.
 */
export function abortReasonOf(signal: AbortSignal): string | undefined {
  const r: unknown = signal.reason
  if (typeof r === 'string') return r
  if (r instanceof Error && r.name !== 'AbortError') return r.message
  return undefined
}
