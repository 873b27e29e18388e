import { Fzf, byLengthAsc, type FzfResultItem } from 'fzf'
import { walkFiles } from '../tools/walk'

/** Files listed per workspace at most: past this the finder offers what it saw (and says the list was cut). */
export const MAX_FINDER_FILES = 50_000
/** How long a workspace's listing is reused: typing `@comp` asks once per key, the folder is walked once. */
export const FINDER_TTL_MS = 10_000
/** Workspaces whose listing is kept at once (a person rarely has more open). */
const MAX_CACHED = 8
/** Over this many files fzf's v1 algorithm (greedy, linear) replaces v2 (optimal, quadratic in the worst case). */
const V2_MAX = 20_000

export interface FoundFile {
  /** workspace-relative, `/`-separated */
  path: string
  /** indexes of the matched characters in `path` (for highlighting) */
  positions: number[]
}

interface Listing {
  files: string[]
  /** the walk stopped at MAX_FINDER_FILES */
  truncated: boolean
  finder: Fzf<readonly string[]>
  at: number
}

/**
 * The `@` finder's file list (issue 28): a workspace's files — .gitignore respected, .git and node_modules skipped,
 * links leaving the workspace left out (the tools' walk) — listed once per few seconds and fuzzy-matched with fzf.
 */
export class FileFinder {
  private readonly listings = new Map<string, Listing>()
  private readonly walking = new Map<string, Promise<Listing>>()

  constructor(
    private readonly opts: { maxFiles?: number; ttlMs?: number; now?: () => number } = {},
  ) {}

  /** The best matches of `query` among the files of the real folder `root`, best first; an empty query lists the first files by path. */
  async find(root: string, query: string, limit: number): Promise<{ files: FoundFile[]; truncated: boolean }> {
    const listing = await this.listing(root)
    const q = query.trim()
    if (!q) return { files: listing.files.slice(0, limit).map((path) => ({ path, positions: [] })), truncated: listing.truncated }
    const found = listing.finder.find(q).slice(0, limit)
    return { files: found.map((r: FzfResultItem<string>) => ({ path: r.item, positions: [...r.positions].sort((a, b) => a - b) })), truncated: listing.truncated }
  }

  /** Forget a workspace's listing (a file was created or deleted through the app). */
  forget(root?: string): void {
    if (root === undefined) this.listings.clear()
    else this.listings.delete(root)
  }

  private async listing(root: string): Promise<Listing> {
    const now = this.opts.now?.() ?? Date.now()
    const hit = this.listings.get(root)
    if (hit && now - hit.at < (this.opts.ttlMs ?? FINDER_TTL_MS)) return hit
    // Keys typed while the folder is walked wait for that one walk.
    const running = this.walking.get(root)
    if (running) return running
    const walk = this.walk(root, now).finally(() => this.walking.delete(root))
    this.walking.set(root, walk)
    return walk
  }

  private async walk(root: string, at: number): Promise<Listing> {
    const files: string[] = []
    const max = this.opts.maxFiles ?? MAX_FINDER_FILES
    const summary = await walkFiles(root, {
      root,
      signal: AbortSignal.timeout(30_000),
      maxFiles: max,
      gitignore: true,
      visit(file) {
        files.push(file.rel)
        return true
      },
    })
    const finder = new Fzf<readonly string[]>(files, {
      casing: 'smart-case',
      fuzzy: files.length > V2_MAX ? 'v1' : 'v2',
      // Equal scores: the shorter path (src/composer.tsx before src/components/composer/composer.test.tsx).
      tiebreakers: [byLengthAsc],
    })
    const listing: Listing = { files, truncated: summary.exhausted, finder, at }
    this.listings.delete(root)
    this.listings.set(root, listing)
    while (this.listings.size > MAX_CACHED) this.listings.delete(this.listings.keys().next().value as string)
    return listing
  }
}
