import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { discoverCommands } from './discover'

/**
 * Issue 27's budget: commands add < 50 ms to a cold `agentry run`. A prompt that is no `/name` reads none; one that is
 * parses only its own file (the others are listed by name); the full list (`/help`, `commands.list`) parses each file
 * once per process. Measured with 200 files whose descriptions all take the lenient path (an unquoted ": ").
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cmd-bench-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

const time = <T>(f: () => T): [T, number] => {
  const t = performance.now()
  const r = f()
  return [r, performance.now() - t]
}

it('200 command files: one /name resolves in < 50 ms cold; the full list is < 50 ms once parsed', () => {
  const dir = path.join(root, 'ws', '.claude', 'commands', 'ns')
  fs.mkdirSync(dir, { recursive: true })
  for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(dir, `c${i}.md`), `---\ndescription: Command ${i} does things: with a colon\nargument-hint: [a] [b]\nmodel: haiku\n---\nDo $ARGUMENTS for ${i}\n`)
  const o = { home: path.join(root, 'home'), dataDir: path.join(root, 'data'), workdir: path.join(root, 'ws'), trusted: true }
  const [one, coldOne] = time(() => discoverCommands({ ...o, only: 'ns:c7' }))
  expect(one.byName.get('ns:c7')?.description).toBe('Command 7 does things: with a colon')
  expect(one.names).toHaveLength(200 + 5)
  const [, coldAll] = time(() => discoverCommands(o))
  const [all, warmAll] = time(() => discoverCommands(o))
  expect(all.commands.filter((c) => c.source === 'workspace')).toHaveLength(200)
  console.log(`200 commands: one /name cold ${coldOne.toFixed(1)} ms, the full list cold ${coldAll.toFixed(1)} ms, warm ${warmAll.toFixed(1)} ms`)
  expect(coldOne).toBeLessThan(50)
  expect(warmAll).toBeLessThan(50)
})
