import fs from 'node:fs'
import path from 'node:path'
import { readFrontmatter } from '../config'

export const MAX_LISTED_FILES = 100
const MAX_DEPTH = 4

/**
 * The files beside a skill's SKILL.md (relative, `/`-separated, sorted), for the model to read with read_file: walked a
 * few levels deep, links not followed (a link's target is judged when it is read), hidden files and node_modules left
 * out, at most MAX_LISTED_FILES (the rest counted).
 */
export function filesBeside(dir: string): { files: string[]; more: number } {
  const files: string[] = []
  let more = 0
  const walk = (rel: string, depth: number) => {
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true })
    } catch {
      return
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue
      const p = rel ? `${rel}/${e.name}` : e.name
      if (e.isDirectory()) {
        if (depth < MAX_DEPTH) walk(p, depth + 1)
        continue
      }
      if (p === 'SKILL.md') continue
      if (files.length < MAX_LISTED_FILES) files.push(p)
      else more++
    }
  }
  walk('', 1)
  return { files, more }
}

/**
 * A skill's instructions, read when the model loads it (as the file is now: an edit since the prompt started is what
 * the author means). A file that no longer parses says why in one line.
 */
export function skillBody(file: string): { ok: true; body: string } | { ok: false; reason: string } {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (err) {
    return { ok: false, reason: `${file} cannot be read: ${(err as Error).message}` }
  }
  const fm = readFrontmatter(text)
  return fm.ok ? { ok: true, body: fm.body } : { ok: false, reason: `${file}:${fm.line}: ${fm.reason}` }
}
