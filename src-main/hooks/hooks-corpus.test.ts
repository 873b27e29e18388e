import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { HOOK_EVENTS } from '../../src-shared'
import { DEFAULT_HOOK_TIMEOUT_SECONDS, loadHooks } from './load-hooks'

/**
 * Real hook configurations from public repositories (test-corpora/hooks, see its README): each loads, and keeps
 * its author's events, matchers, commands and timeouts. Events and hook types Agentry does not run are problems
 * that say so — never a file that fails, never a hook silently dropped.
 */
const ROOT = path.join(__dirname, '../../test-corpora/hooks')

function jsonFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? jsonFiles(p) : e.name.endsWith('.json') ? [p] : []
  })
}

type Group = { matcher?: string; hooks: { type: string; command?: string; timeout?: number }[] }

/** What the author wrote, read plainly: the command hooks of the events Agentry runs. */
function expected(file: string) {
  const hooks = (JSON.parse(fs.readFileSync(file, 'utf8')) as { hooks: Record<string, Group[]> }).hooks
  return Object.entries(hooks)
    .filter(([event]) => (HOOK_EVENTS as readonly string[]).includes(event))
    .flatMap(([event, groups]) =>
      groups.flatMap((g) => g.hooks.filter((h) => h.type === 'command').map((h) => ({ event, matcher: (g.matcher ?? '').trim(), command: h.command, timeoutSeconds: h.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS }))),
    )
}

describe('hooks corpus', () => {
  const collections = fs.readdirSync(ROOT, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)

  it('has the collections the README lists', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
    expect(collections.length).toBeGreaterThanOrEqual(4)
    for (const c of collections) expect(readme).toContain(`| ${c} |`)
  })

  for (const collection of collections) {
    it(`${collection}: every file loads with its events, matchers, commands and timeouts`, () => {
      const files = jsonFiles(path.join(ROOT, collection))
      let hooks = 0
      const notRun: string[] = []
      for (const file of files) {
        const set = loadHooks([{ file, format: 'json', workspace: false }], { trusted: true })
        expect(set.all.map(({ event, matcher, command, timeoutSeconds }) => ({ event, matcher, command, timeoutSeconds })), file).toEqual(expected(file))
        // The only problems are events or hook types that do not run here, and events that are not Claude Code's
        // (claude-flow's own `preEditHook` format), each said in one line.
        for (const p of set.problems) expect(p.reason, `${file} ${p.path}`).toMatch(/do not run in Agentry|only "command" hooks|^unknown event "\w+"; the events are/)
        notRun.push(...set.problems.map((p) => p.path))
        hooks += set.all.length
      }
      console.log(`${collection}: ${files.length} files, ${hooks} hooks loaded, ${notRun.length} not run here (${[...new Set(notRun.map((p) => p.split(/[.[]/)[1]))].join(', ') || 'none'})`)
      expect(hooks + notRun.length).toBeGreaterThan(0)
    })
  }
})
