import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import YAML from 'yaml'
import { describe, expect, it } from 'vitest'
import { loadSkills } from './load-skills'
import { parseSkill } from './parse-skill'

/**
 * Real public skills (test-corpora/skills/, see its README for repository, commit and licence): each collection loads at
 * ≥ 99% and every skill keeps its author's intent — the name, description and allowed-tools its SKILL.md gives.
 */
const ROOT = path.join(__dirname, '..', '..', 'test-corpora', 'skills')
const collections = fs.readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()

function skillFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name === 'SKILL.md').map((e) => path.join(e.parentPath, e.name)).sort()
}

/** What the author wrote, read strictly (undefined when strict YAML fails: the lenient reader's case). */
function strictFrontmatter(text: string): Record<string, unknown> | undefined {
  const m = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)
  try {
    return m ? (YAML.parse(m[1]) as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

describe.each(collections)('skills corpus: %s', (collection) => {
  const files = skillFiles(path.join(ROOT, collection))
  const results = files.map((file) => ({ file, text: fs.readFileSync(file, 'utf8'), r: parseSkill(fs.readFileSync(file, 'utf8'), file, path.basename(path.dirname(file))) }))

  it('loads at least 99% (report: loaded / warned / failed with reason)', () => {
    const failed = results.filter((x) => !x.r.ok)
    const warned = results.filter((x) => x.r.ok && x.r.skill.warnings.length > 0)
    const rel = (f: string) => path.relative(ROOT, f)
    console.log(
      [
        `${collection}: ${files.length} skills, ${files.length - failed.length} loaded (${warned.length} with warnings), ${failed.length} failed`,
        ...warned.flatMap((x) => (x.r.ok ? x.r.skill.warnings.map((w) => `  warned ${rel(x.file)}:${w.line ?? ''} ${w.field ?? ''}: ${w.reason}`) : [])),
        ...failed.map((x) => `  failed ${rel(x.file)}: ${x.r.ok ? '' : `${x.r.error.line ?? ''} ${x.r.error.reason}`}`),
      ].join('\n'),
    )
    expect(files.length).toBeGreaterThan(10)
    expect((files.length - failed.length) / files.length).toBeGreaterThanOrEqual(0.99)
  })

  it("keeps each author's name, description and allowed-tools", () => {
    for (const { file, text, r } of results) {
      if (!r.ok) continue
      const fm = strictFrontmatter(text)
      if (!fm) continue
      if (typeof fm.name === 'string' && /^[A-Za-z0-9][\w.:-]*$/.test(fm.name)) expect(r.skill.name, file).toBe(fm.name)
      const description = String(fm.description).trim()
      // Over 1024 characters (the format's limit) the model sees the first 1024, with a warning.
      expect(r.skill.description, file).toBe(description.length <= 1024 ? description : `${description.slice(0, 1023)}…`)
      const tools = fm['allowed-tools']
      if (Array.isArray(tools)) expect(r.skill.allowedTools, file).toEqual(tools)
      else if (typeof tools === 'string') expect(r.skill.allowedTools.join(' '), file).toBe(tools.split(/[,\s]+(?![^(]*\))/).filter(Boolean).join(' '))
    }
  })

  it('keeps allowed-tools wherever the author gave them', () => {
    const given = results.filter((x) => /^allowed-tools:\s*\S/m.test(x.text.split(/\n---/)[0]))
    expect(given.filter((x) => x.r.ok && x.r.skill.allowedTools.length > 0).length).toBe(given.length)
  })

  it("loads as someone's ~/.claude/skills: every skill offered, the files beside it listed", () => {
    // The loader reads one level of folders: each parent of skill folders stands in as the person's skills folder.
    const parents = [...new Set(files.map((f) => path.dirname(path.dirname(f))))]
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-corpus-'))
    try {
      let loaded = 0
      for (const [i, parent] of parents.entries()) {
        const home = path.join(tmp, String(i))
        fs.mkdirSync(path.join(home, '.claude'), { recursive: true })
        fs.symlinkSync(parent, path.join(home, '.claude', 'skills'))
        const r = loadSkills({ dataDir: path.join(tmp, 'data'), home, trusted: false })
        expect(r.skills.every((s) => s.source === 'person' && s.offered)).toBe(true)
        loaded += r.skills.length
      }
      expect(loaded).toBe(results.filter((x) => x.r.ok).length)
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })
})
