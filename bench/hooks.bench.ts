/**
 * What hooks cost a tool call that no hook matches (issue 27 target: < 0.1 ms per call). A realistic configuration —
 * 24 PreToolUse/PostToolUse hooks on other tools (exact names, `A|B` lists, regexes such as `mcp__github__.*`) — is
 * loaded once, as a run's snapshot does; each call then asks the loop's hook port before and after the tool, exactly
 * as executeOne does (including the await), for a `read_file` call none of them matches.
 */
import { parseHooksSection, type HookSet } from '../src-main/hooks'
import type { HookEventName, HookProblem } from '../src-shared'
import { loopHooks } from '../src-main/runtime/tool-hooks'
import type { RunLevel } from '../src-main/runtime'
import { DEFAULT_SANDBOX_POLICY } from '../src-main/sandbox'
import { round, runIfMain } from './stats'

const MATCHERS = ['Bash', 'Write|Edit|MultiEdit', 'mcp__github__.*', 'WebFetch', 'Task', 'Edit', 'Notebook.*', 'Grep|Glob', 'mcp__memory__create_.*', 'TodoWrite', 'Write', 'LS']

function hookSet(): HookSet {
  const group = (matcher: string, i: number) => ({ matcher, hooks: [{ type: 'command', command: `./hook-${i}.sh`, timeout: 10 }] })
  const problems: HookProblem[] = []
  const all = parseHooksSection({ PreToolUse: MATCHERS.map(group), PostToolUse: MATCHERS.map((m, i) => group(m, i + 100)) }, { file: '/bench/settings.json', active: true }, problems)
  if (problems.length) throw new Error(problems.map((p) => p.reason).join('; '))
  const byEvent = new Map<HookEventName, typeof all>()
  for (const h of all) byEvent.set(h.event, [...(byEvent.get(h.event) ?? []), h])
  return { byEvent, all, problems }
}

export async function run(): Promise<Record<string, unknown>> {
  const level = { sessionId: 'ses_bench', workdir: '/bench', depth: 0, agent: { name: 'build' }, signal: new AbortController().signal, settings: { hooks: hookSet() } } as unknown as RunLevel
  const hooks = loopHooks(level, () => DEFAULT_SANDBOX_POLICY, new Set())
  if (!hooks) throw new Error('the bench configuration has no tool hooks')
  const input = { path: 'src/index.ts' }
  const calls = 200_000
  const measure = async (): Promise<number> => {
    const t0 = process.hrtime.bigint()
    for (let i = 0; i < calls; i++) {
      const pending = hooks.before({ toolName: 'read_file', input, toolCallId: 'call_1' })
      const pre = pending ? await pending : undefined
      if (pre?.block) throw new Error('a hook matched read_file')
      const after = hooks.after({ toolName: 'read_file', input, toolCallId: 'call_1', output: 'x' })
      if (after) await after
    }
    return Number(process.hrtime.bigint() - t0) / 1e6 / calls
  }
  await measure() // warm up
  const perCallMs = Math.min(await measure(), await measure(), await measure())
  return { hooksConfigured: level.settings.hooks?.all.length, calls, perCallMs: round(perCallMs, 5), perCallMicros: round(perCallMs * 1000, 3), target: '< 0.1 ms per tool call with no matching hook', met: perCallMs < 0.1 }
}

runIfMain(import.meta.url, run)
