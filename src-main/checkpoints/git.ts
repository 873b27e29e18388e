import { execFile } from 'node:child_process'
import fs from 'node:fs'
import { errnoCode } from '../files'

/** Where a shadow store's git lives: its own GIT_DIR and index, and the workspace it records. */
export type ShadowPlace = { gitDir: string; indexFile: string; workspace: string; excludesFile: string }

/**
 * Configuration for every call. The person's own configuration is never read (GIT_CONFIG_GLOBAL/NOSYSTEM below), so
 * nothing of theirs runs inside our store: no hooks, no fsmonitor daemon, no clean/smudge filters (git-lfs), no
 * textconv, no signing. Line endings are never converted (autocrlf off here; `.gitattributes` text/eol/filter are
 * unset in the store's info/attributes, see store.ts), so a restore puts back exactly the bytes that were recorded.
 */
const CONFIG = [
  'core.hooksPath=/dev/null',
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.fsmonitor=false',
  'core.symlinks=true',
  'core.quotePath=false',
  'core.logAllRefUpdates=false',
  'core.untrackedCache=true',
  'core.sparseCheckout=false',
  'gc.auto=0',
  'maintenance.auto=false',
  'commit.gpgSign=false',
  'advice.addEmbeddedRepo=false',
  'diff.noprefix=false',
  'diff.mnemonicPrefix=false',
]

/**
 * The environment of every call, built for git rather than inherited: any GIT_* variable of ours (a hook's GIT_DIR,
 * GIT_INDEX_FILE of a `git rebase --exec` that started the host) would point git at the person's repository.
 */
export function gitEnv(place: ShadowPlace): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v
  return {
    ...env,
    GIT_DIR: place.gitDir,
    GIT_WORK_TREE: place.workspace,
    GIT_INDEX_FILE: place.indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Agentry checkpoints',
    GIT_AUTHOR_EMAIL: 'checkpoints@agentry.invalid',
    GIT_COMMITTER_NAME: 'Agentry checkpoints',
    GIT_COMMITTER_EMAIL: 'checkpoints@agentry.invalid',
    // Messages we parse (and repeat in errors) in one language.
    LC_ALL: 'C',
    // glibc gives freed memory back after each file zlib compresses; brk is a slow system call on some VMs, and a
    // first snapshot of 10,000 files took 8 s of it instead of 0.7 s. Other C libraries ignore the variable.
    MALLOC_TOP_PAD_: String(32 * 1024 * 1024),
  }
}

/** A git call that failed: the subcommand, git's first error line, and everything git said. */
export class GitError extends Error {
  constructor(
    readonly args: string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`checkpoints: git ${args[0]} failed (${firstError(stderr) || `exit ${exitCode}`})`)
    this.name = 'GitError'
  }
}

function firstError(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean)
  return lines.find((l) => /^(fatal|error):/.test(l)) ?? lines[0] ?? ''
}

export type GitOptions = { input?: string | Buffer; okCodes?: number[] }
export type GitResult = { stdout: Buffer; stderr: string; code: number }

/**
 * Runs `git <args>` for the shadow store (execFile, no shell). Resolves with stdout as bytes (paths in `-z` output
 * may be any bytes); rejects with a GitError unless the exit code is 0 or in `okCodes`.
 */
export function runGit(place: ShadowPlace, args: string[], options: GitOptions = {}): Promise<GitResult> {
  const argv = [...CONFIG.flatMap((c) => ['-c', c]), '-c', `core.excludesFile=${place.excludesFile}`, ...args]
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      argv,
      { cwd: place.workspace, env: gitEnv(place), encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024, windowsHide: true },
      (err, stdout, stderrBytes) => {
        const stderr = stderrBytes.toString('utf8')
        if (err && errnoCode(err) === 'ENOENT' && !stdout.length && !stderr) {
          // spawn says ENOENT both for a missing program and for a missing working folder
          if (!fs.existsSync(place.workspace)) reject(new Error(`checkpoints: the workspace ${place.workspace} no longer exists; open it again`))
          else reject(new Error('checkpoints need git on PATH; install git (https://git-scm.com) and restart Agentry'))
          return
        }
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0
        if (code === 0 || (code !== null && options.okCodes?.includes(code))) resolve({ stdout, stderr, code })
        else reject(new GitError(args, code, stderr || (err?.message ?? '')))
      },
    )
    if (options.input !== undefined) child.stdin?.end(options.input)
  })
}

/** stdout split on NUL (the `-z` formats), without the empty piece after the last terminator. */
export function splitZ(stdout: Buffer): string[] {
  const parts = stdout.toString('utf8').split('\0')
  if (parts.at(-1) === '') parts.pop()
  return parts
}
