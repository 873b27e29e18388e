import { describe, expect, it } from 'vitest'
import { splitBashCommand } from './bash-split'

describe('splitBashCommand', () => {
  it.each<[string, string[]]>([
    ['ls -la', ['ls -la']],
    ['ls && rm -rf x', ['ls', 'rm -rf x']],
    ['a || b; c | d & e', ['a', 'b', 'c', 'd', 'e']],
    ['make |& tee log', ['make', 'tee log']],
    ['a\nb\n\n  c  ', ['a', 'b', 'c']],
    ['a ;; ; b', ['a', 'b']],
    ['echo "a && b"', ['echo "a && b"']],
    ["echo 'x; rm -rf /' | cat", ["echo 'x; rm -rf /'", 'cat']],
    ['echo a\\;b', ['echo a\\;b']],
    ['(cd x; rm -rf y)', ['cd x', 'rm -rf y']],
    ['(cd x && (rm -rf y)) || z', ['cd x', 'rm -rf y', 'z']],
    ['echo $(rm -rf /)', ['rm -rf /', 'echo $(rm -rf /)']],
    ['echo "$(rm -rf / && curl x)"', ['rm -rf /', 'curl x', 'echo "$(rm -rf / && curl x)"']],
    ['echo `rm -rf /`', ['rm -rf /', 'echo `rm -rf /`']],
    ['echo "`whoami`"', ['whoami', 'echo "`whoami`"']],
    ["echo '$(not run)'", ["echo '$(not run)'"]],
    ['diff <(sort a) <(sort b)', ['sort a', 'sort b', 'diff <(sort a) <(sort b)']],
    ['echo $(cat $(ls))', ['ls', 'cat $(ls)', 'echo $(cat $(ls))']],
    ['cmd > out 2>&1 && next', ['cmd > out 2>&1', 'next']],
    ['cmd &> log', ['cmd &> log']],
    ['echo x >| f', ['echo x >| f']],
    ['sleep 1 & rm x', ['sleep 1', 'rm x']],
    ['git status # && rm -rf /', ['git status']],
    ['echo a#b', ['echo a#b']],
    ['ls \\\n  -la', ['ls    -la']],
    ['if rm x; then echo y; fi', ['rm x', 'echo y']],
    ['for f in *; do rm "$f"; done', ['for f in *', 'rm "$f"']],
    ['{ rm -rf x; }', ['rm -rf x']],
    ['! rm x', ['rm x']],
    ['FOO=1 rm x', ['FOO=1 rm x', 'rm x']],
    ['A=1 B="two words" npm test', ['A=1 B="two words" npm test', 'npm test']],
    ['FOO=1', ['FOO=1']],
    ['ls && ls', ['ls']],
    ['', []],
    ['  ;  && ', []],
  ])('%j → %j', (line, expected) => {
    expect(splitBashCommand(line)).toEqual(expected)
  })

  it('does not hang or throw on unbalanced input', () => {
    expect(splitBashCommand('echo "unterminated && rm x')).toEqual(['echo "unterminated && rm x'])
    expect(splitBashCommand('(rm x')).toEqual(['rm x'])
    expect(splitBashCommand('echo $(rm x')).toEqual(['rm x', 'echo $(rm x'])
    expect(splitBashCommand("echo 'open")).toEqual(["echo 'open"])
  })
})
