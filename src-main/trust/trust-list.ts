import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { errnoCode, isMissing, readText } from '../files'

/**
 * The workspace files trust is about: the ones that may loosen the person's rules, route keys or start programs (MCP
 * servers, from `.mcp.json` and `.agents/config.yaml`) when trusted.
 */
// .claude/settings*.json: their hooks run commands (issue 27), so trust is pinned to them too.
export const TRUSTED_FILES = ['.agents/permissions.jsonc', '.agents/config.yaml', '.mcp.json', '.claude/settings.json', '.claude/settings.local.json'] as const

const FileStamp = z.object({ path: z.string(), sha256: z.string().nullable() }).strict()
export type FileStamp = z.infer<typeof FileStamp>

const TrustEntry = z.object({ root: z.string().min(1), trustedAt: z.number(), files: z.array(FileStamp) }).strict()
export type TrustEntry = z.infer<typeof TrustEntry>

const TrustFile = z.object({ version: z.literal(1), workspaces: z.array(TrustEntry) }).strict()

export const TRUST_FILE_NAME = 'trust.json'

export type TrustStatus = 'trusted' | 'untrusted' | 'changed'

export interface TrustState {
  root: string
  status: TrustStatus
  trustedAt: number | null
  /** the files as they are now (sha256 null = absent) */
  files: FileStamp[]
  /** files whose content differs from when the person trusted the workspace */
  changed: string[]
  /** trust.json could not be used (then nothing is trusted) */
  problem?: string
}

/**
 * `{dataDir}/trust.json` (0600): the workspaces the person trusts, each with the exact content (sha256) of the
 * files they were shown. Trust holds only while those files are unchanged — like `direnv allow`, a changed,
 * added or removed file needs trusting again. Re-read on every check so the CLI, the daemon and the app agree.
 */
export class TrustList {
  readonly file: string

  constructor(dataDir: string) {
    this.file = path.join(dataDir, TRUST_FILE_NAME)
  }

  /** The trust state of a workspace root (realpath) given its files now. */
  state(root: string): TrustState {
    const files = stampFiles(root)
    const { entries, problem } = this.read()
    const entry = entries.find((e) => e.root === root)
    if (!entry) return { root, status: 'untrusted', trustedAt: null, files, changed: [], problem }
    // A file trust did not cover when it was given (a list from before .mcp.json counted) stands as absent then.
    const changed = files.filter((f) => (entry.files.find((e) => e.path === f.path)?.sha256 ?? null) !== f.sha256).map((f) => f.path)
    return { root, status: changed.length ? 'changed' : 'trusted', trustedAt: entry.trustedAt, files, changed, problem }
  }

  /**
   * Trust `root` with its files as they are now. `expected` (what the person was shown) must still match, so a
   * file that changed between showing and clicking is not trusted unseen.
   */
  trust(root: string, expected?: FileStamp[]): TrustState {
    const files = stampFiles(root)
    if (expected) {
      const differs = files.filter((f) => (expected.find((e) => e.path === f.path)?.sha256 ?? null) !== f.sha256)
      if (differs.length) throw new TrustError(`${differs.map((f) => f.path).join(', ')} changed since it was shown. Review the workspace's files again, then trust it.`)
    }
    const { entries } = this.read()
    this.write([...entries.filter((e) => e.root !== root), { root, trustedAt: Date.now(), files }])
    return this.state(root)
  }

  /** Forget `root`; returns whether it was on the list. */
  revoke(root: string): boolean {
    const { entries } = this.read()
    const kept = entries.filter((e) => e.root !== root)
    if (kept.length === entries.length) return false
    this.write(kept)
    return true
  }

  private read(): { entries: TrustEntry[]; problem?: string } {
    const read = readText(this.file)
    if (read.kind === 'missing') return { entries: [] }
    if (read.kind === 'unreadable') return { entries: [], problem: `${this.file}: cannot read the trust list (${read.reason}); no workspace is trusted until it can be read` }
    let json: unknown
    try {
      json = JSON.parse(read.text)
    } catch (err) {
      return { entries: [], problem: `${this.file}: not valid JSON (${(err as Error).message}); no workspace is trusted. Delete the file and trust workspaces again` }
    }
    const parsed = TrustFile.safeParse(json)
    if (!parsed.success) return { entries: [], problem: `${this.file}: not a trust list (${parsed.error.issues[0]?.message}); no workspace is trusted. Delete the file and trust workspaces again` }
    return { entries: parsed.data.workspaces }
  }

  private write(workspaces: TrustEntry[]): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true })
    // Write-then-rename, created 0600: never half-written, never readable by others.
    const tmp = `${this.file}.${process.pid}.tmp`
    fs.writeFileSync(tmp, `${JSON.stringify({ version: 1, workspaces }, null, 2)}\n`, { mode: 0o600 })
    fs.renameSync(tmp, this.file)
    fs.chmodSync(this.file, 0o600)
  }
}

/** The files changed since they were shown: the person must look again before trusting. */
export class TrustError extends Error {
  override readonly name = 'TrustError'
  readonly code = 'conflict' as const
}

/** The trusted files of a workspace with their sha256 now (null = absent). */
export function stampFiles(root: string): FileStamp[] {
  return TRUSTED_FILES.map((rel) => ({ path: rel, sha256: hashIfExists(path.join(root, rel)) }))
}

function hashIfExists(file: string): string | null {
  let data: Buffer
  try {
    data = fs.readFileSync(file)
  } catch (err) {
    if (isMissing(err)) return null
    // Unreadable (EACCES, EISDIR): a distinct stamp, so trust never covers content nobody could see.
    return `unreadable:${errnoCode(err) ?? 'error'}`
  }
  return crypto.createHash('sha256').update(data).digest('hex')
}
