import { execFile } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/**
 * `git merge-file -p ours base theirs` — git's own three-way merge of one file, on copies in a temporary folder (no
 * repository is involved): the merged bytes, or null when both sides changed the same lines (or a file is binary).
 */
export async function mergeFile(ours: Buffer, base: Buffer, theirs: Buffer): Promise<Buffer | null> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-merge-'))
  try {
    const [o, b, t] = ['ours', 'base', 'theirs'].map((n) => path.join(tmp, n))
    fs.writeFileSync(o, ours)
    fs.writeFileSync(b, base)
    fs.writeFileSync(t, theirs)
    return await new Promise((resolve, reject) => {
      execFile('git', ['merge-file', '-p', o, b, t], { cwd: tmp, encoding: 'buffer', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, LC_ALL: 'C' } }, (err, stdout, stderr) => {
        // Exit code: 0 clean, the number of conflicts (1–127), or 255 for an error such as a binary file.
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0
        if (code === 0) resolve(stdout)
        else if (code > 0) resolve(null)
        else reject(new Error(`git merge-file failed: ${stderr.toString('utf8').trim().split('\n')[0] || err?.message}`))
      })
    })
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}
