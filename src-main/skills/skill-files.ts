import fs from 'node:fs'
import path from 'node:path'

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
