import { beforeAll, describe, expect, it } from 'vitest'
import type { CompactPermission, PermissionAction } from '../../src-shared'
import { decide, type PermissionRequest } from './decide'
import { fromCompact } from './ruleset'
import { loadShellGrammar } from './shell'

/**
 * Every evasion reported against the hand-written splitter (issue 9), as a decision under the rules it was
 * reported with. Each of these was allowed (or wrongly denied) before the tree-sitter parser.
 */
beforeAll(() => loadShellGrammar())

const ALLOW_ALL_BUT_RM: CompactPermission = { bash: { '*': 'allow', 'rm *': 'deny' } }
const README_EXAMPLE: CompactPermission = { bash: { '*': 'ask', 'git status*': 'allow', 'rm *': 'deny' } }
const ECHO_ONLY: CompactPermission = { bash: { '*': 'ask', 'echo *': 'allow' } }

const bash = (line: string): PermissionRequest => ({ tool: 'bash', kind: 'command', subjects: [line] })
function decideUnder(rules: CompactPermission, line: string, runtime: CompactPermission = {}) {
  return decide([{ agent: fromCompact({ '*': 'allow' }), static: fromCompact(rules), runtime: fromCompact(runtime) }], bash(line))
}

describe('the 24 ways to run rm, under { bash: { "*": allow, "rm *": deny } }', () => {
  it.each([
    'rm -f x',
    'ls; rm -f x',
    'ls && rm -f x',
    'echo $(rm -f x)',
    'sudo rm -f x',
    '(rm -f x)',
    'bash -c "rm -f x"',
    "sh -c 'rm -f x'",
    'eval "rm -f x"',
    'env rm -f x',
    'command rm -f x',
    'nice rm -f x',
    'exec rm -f x',
    'timeout 5 rm -f x',
    'echo x | xargs rm -f',
    'find . -name x -exec rm {} \\;',
    "'rm' -f x",
    '"rm" -f x',
    'r\\m -f x',
    '/bin/rm -f x',
    '\\rm -f x',
    'f() { rm -f x; }; f',
    'case a in a) rm -f x;; esac',
    'y=$(rm -f x)',
  ])('%s → deny', (line) => {
    expect(decideUnder(ALLOW_ALL_BUT_RM, line).action).toBe('deny')
  })
})

describe('splitter blind spots, under the README example { "*": ask, "git status*": allow, "rm *": deny }', () => {
  it.each<[string, PermissionAction]>([
    ["git status $'\\''; rm x", 'deny'],
    ['git status y\\ #; rm z', 'deny'],
    ["git status ${v:='$(rm w)'} ${v@P}", 'ask'],
    ['rm\tx', 'deny'],
  ])('%j → %s', (line, action) => {
    expect(decideUnder(README_EXAMPLE, line).action).toBe(action)
  })
})

describe('lines that cannot be resolved statically ask even under bash: allow and an "always" grant', () => {
  it.each([
    "git -c alias.st='!rm x' st",
    'git -c core.fsmonitor="rm x" status',
    'git -c core.sshCommand="rm x" fetch',
    'git -c core.pager="rm x" log',
    '$(printf rm) x',
    'bash -c "$VAR"',
    'eval "$(printf "rm x")"',
    "v='$(rm w)'; echo ${v@P}",
  ])('%s → ask', (line) => {
    const d = decideUnder({ bash: 'allow' }, line, { '*': 'allow' })
    expect(d.action).toBe('ask')
    expect(d.mustAsk).toBe(true)
  })
})

describe('the splitter erred the other way too', () => {
  it('a here-document body is data, not commands', () => {
    expect(decideUnder(ALLOW_ALL_BUT_RM, 'cat <<EOF\nhello; rm x\nEOF').action).toBe('allow')
  })

  it('…unless a shell reads it', () => {
    expect(decideUnder(ALLOW_ALL_BUT_RM, "bash <<'EOF'\nrm x\nEOF").action).toBe('deny')
  })
})

describe('command patterns match any text, not path segments', () => {
  it.each(['rm a/../b', 'rm -rf /..', 'rm "a\nb"'])('%j → deny under rm *: deny', (line) => {
    expect(decideUnder(ALLOW_ALL_BUT_RM, line).action).toBe('deny')
  })

  it('an allowed echo line stays allowed', () => {
    expect(decideUnder(ECHO_ONLY, 'echo hello world').action).toBe('allow')
  })
})
