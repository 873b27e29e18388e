/**
 * Discovery of the person's setup (issue 27): what 500 skills and 200 commands add to a cold `agentry run`.
 * Two homes, alike but for `~/.claude/skills/` (500 SKILL.md folders) and `~/.claude/commands/` (200 files, their
 * descriptions all with an unquoted ": " so each takes the lenient reader's slow path): `agentry run --model
 * script/x hi` in each, rounds interleaved, wall time from spawn to exit. The first run of a data dir parses every
 * file (no parse cache yet); later runs read the cache. Also a `/name` prompt (it parses only its own command file).
 * Target: < 50 ms added. Run: `npx tsx bench/discovery.bench.ts` (prints JSON). The bench runner imports run().
 */
import fs from 'node:fs'
import path from 'node:path'
import { agentry, buildCli, tempDir } from '../src-main/cli/testing/cli-process'
import { median, round, runIfMain } from './stats'

const ROUNDS = 7
const TARGET_MS = 50

function fillHome(home: string): void {
  for (let i = 0; i < 500; i++) {
    const dir = path.join(home, '.claude', 'skills', `skill-${i}`)
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: skill-${i}\ndescription: Does thing ${i}. Use when the user asks for ${i}.\n---\n${'Body line.\n'.repeat(40)}`)
    fs.writeFileSync(path.join(dir, 'reference.md'), `# Reference ${i}\n`)
  }
  const commands = path.join(home, '.claude', 'commands', 'ns')
  fs.mkdirSync(commands, { recursive: true })
  for (let i = 0; i < 200; i++) fs.writeFileSync(path.join(commands, `c${i}.md`), `---\ndescription: Command ${i} does things: with a colon\nargument-hint: [a] [b]\n---\nDo $ARGUMENTS for ${i}\n`)
}

async function timed(args: string[], home: string, dataHome: string, cwd: string): Promise<number> {
  const t = performance.now()
  const r = await agentry(args, { home: dataHome, cwd, env: { HOME: home, AGENTRY_SCRIPT: path.join(dataHome, 'script.yaml') } })
  if (r.code !== 0) throw new Error(`agentry ${args.join(' ')} exited ${r.code}: ${r.stderr}`)
  return performance.now() - t
}

export async function run(): Promise<Record<string, unknown>> {
  buildCli()
  const bare = tempDir('disc-bare-home')
  const full = tempDir('disc-full-home')
  const work = tempDir('disc-work')
  fillHome(full)
  const data = { bare: tempDir('disc-bare-data'), full: tempDir('disc-full-data') }
  fs.writeFileSync(path.join(data.full, 'script.yaml'), 'agents:\n  "*": [ { text: "ok", repeat: true } ]\n')
  fs.writeFileSync(path.join(data.bare, 'script.yaml'), 'agents:\n  "*": [ { text: "ok", repeat: true } ]\n')
  const args = ['run', '--model', 'script/x', 'hi']
  try {
    // The first run of each data dir: nothing cached.
    const firstBare = await timed(args, bare, data.bare, work)
    const firstFull = await timed(args, full, data.full, work)
    const bareRuns: number[] = []
    const fullRuns: number[] = []
    const commandRuns: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      bareRuns.push(await timed(args, bare, data.bare, work))
      fullRuns.push(await timed(args, full, data.full, work))
      commandRuns.push(await timed(['run', '--model', 'script/x', '/ns:c7 one two'], full, data.full, work))
    }
    const added = median(fullRuns) - median(bareRuns)
    return {
      rounds: ROUNDS,
      firstRunMs: { withoutSetup: round(firstBare), with500Skills200Commands: round(firstFull), added: round(firstFull - firstBare) },
      medianRunMs: { withoutSetup: round(median(bareRuns)), with500Skills200Commands: round(median(fullRuns)), aCommandPrompt: round(median(commandRuns)) },
      addedMs: round(added),
      target: TARGET_MS,
      ok: added < TARGET_MS,
    }
  } finally {
    for (const d of [bare, full, work, data.bare, data.full]) fs.rmSync(d, { recursive: true, force: true })
  }
}

runIfMain(import.meta.url, run)
