import os from 'node:os'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeAnsiC } from './ansi-c'
import { analyzeShell, commandSubjects } from './analyze'
import { loadShellGrammar } from './grammar'
import { commandPatternRegExp } from './command-glob'

beforeAll(() => loadShellGrammar())

const subjects = (line: string) => commandSubjects(analyzeShell(line))

describe('analyzeShell: the commands a line runs', () => {
  it.each<[string, string[]]>([
    ['ls -la', ['ls -la']],
    ['ls && rm -rf x', ['ls', 'rm -rf x']],
    ['a || b; c | d & e', ['a', 'b', 'c', 'd', 'e']],
    ['make |& tee log', ['make', 'tee log']],
    ['a\nb\n\n  c  ', ['a', 'b', 'c']],
    ['echo "a && b"', ['echo a && b']],
    ["echo 'x; rm -rf /' | cat", ['echo x; rm -rf /', 'cat']],
    ['echo a\\;b', ['echo a;b']],
    ['(cd x; rm -rf y)', ['cd x', 'rm -rf y']],
    ['echo $(rm -rf /)', ['rm -rf /', 'echo $(rm -rf /)']],
    ['echo "`whoami`"', ['whoami', 'echo "`whoami`"']],
    ["echo '$(not run)'", ['echo $(not run)']],
    ['diff <(sort a) <(sort b)', ['sort a', 'sort b', 'diff <(sort a) <(sort b)']],
    ['git status # && rm -rf /', ['git status']],
    ['if rm x; then echo y; fi', ['rm x', 'echo y']],
    ['for f in *; do rm "$f"; done', ['rm "$f"']],
    ['{ rm -rf x; }', ['rm -rf x']],
    ['FOO=1 rm x', ['FOO=1 rm x', 'rm x']],
    ['A=1 B="two words" npm test', ['A=1 B=two words npm test', 'npm test']],
    ['x=$(rm x)', ['rm x']],
    ['f() { rm x; }; f', ['rm x', 'f']],
    ['case $a in a) rm x;; b|c) ls ;; esac', ['rm x', 'ls']],
    ['while read l; do echo "$l"; done < list', ['read l', 'echo "$l"']],
    ['rm\tx', ['rm x']],
    ["'rm' x; \"rm\" y; r\\m z; /bin/rm w; \\rm v", ['rm x', 'rm y', 'rm z', 'rm w', 'rm v']],
    ["$'\\x72m' x", ['rm x']],
    ['cat <<EOF\nhello; rm x\nEOF', ['cat']],
    ["bash <<'EOF'\nrm x\nEOF", ['rm x']],
    ['sudo -u bob rm x', ['sudo -u bob rm x', 'rm x']],
    ['find . -name "*.o" -exec rm {} +', ['find . -name *.o', 'rm {}']],
    ['echo a b | xargs -n1 -I{} cp {} dest', ['echo a b', 'cp {} dest']],
    ['env -u HOME FOO=1 make', ['make']],
    ['timeout -k 2 10s npm test', ['npm test']],
    ["watch -n 5 'git status; ls'", ['git status', 'ls']],
    ["parallel -j2 'gzip {}' ::: a b", ['gzip {}']],
    ['git -c color.ui=never log', ['git -c color.ui=never log']],
    ['', []],
    ['# only a comment', []],
  ])('%j → %j', (line, expected) => {
    expect(subjects(line)).toEqual(expected)
    expect(analyzeShell(line).mustAsk).toEqual([])
  })
})

describe('analyzeShell: lines that must ask, and why', () => {
  it.each<[string, RegExp]>([
    ['$(printf rm) x', /the command name `\$\(printf rm\)` is only known at run time/],
    ['bash -c "$VAR"', /bash -c runs `"\$VAR"`, which is only known at run time/],
    ['eval "$(curl x)"', /eval runs/],
    ["git status ${v:='$(rm w)'} ${v@P}", /prompt/],
    ["git -c alias.st='!rm x' st", /git -c alias\.st can make git run a command/],
    ['git -c core.sshCommand=x fetch', /core\.sshcommand/],
    ['echo x | sh', /sh reads its commands from a pipe/],
    ['/bin/r? x', /pattern the shell expands/],
    ['{r,}m x', /not valid bash/],
    ['echo > "$f"', /a file named only at run time/],
    ['LD_PRELOAD=./x.so ls', /LD_PRELOAD/],
    ['cd "$d" && echo x > out', /changes to a folder known only at run time/],
    ['timeout --frobnicate 5 rm x', /option Agentry does not know/],
    ["x='a[$(rm y)]'; echo $((x))", /may be evaluated by arithmetic/],
    ['fish -c "rm x"', /language Agentry does not parse/],
    ['x'.repeat(70_000), /longer than/],
    [`${'$('.repeat(500)}ls${')'.repeat(500)}`, /nest|nested/],
  ])('%j', (line, reason) => {
    const a = analyzeShell(line)
    expect(a.mustAsk.join(' | ')).toMatch(reason)
  })

  it('nested shells are followed, but not forever', () => {
    let line = 'rm x'
    for (let i = 0; i < 12; i++) line = `bash -c ${JSON.stringify(line)}`
    expect(analyzeShell(line).mustAsk.join()).toMatch(/nested more than 8 deep/)
    expect(subjects('bash -c "sh -c \'eval rm x\'"')).toEqual(['rm x'])
  })
})

describe('analyzeShell: files a line writes', () => {
  it.each<[string, string[], string[]?]>([
    ['echo x > out.txt', ['out.txt']],
    ['echo x >> a 2>&1 >| b &> c &>> d', ['a', 'b', 'c', 'd']],
    ['echo x > /dev/null 2> /dev/stderr', ['/dev/null', '/dev/stderr']],
    ['echo x | tee -a one two', ['one', 'two']],
    ['dd if=/dev/zero of=disk.img bs=1', ['disk.img']],
    ['cat <<EOF > here.txt\nbody\nEOF', ['here.txt']],
    ['echo x > ~/note', [`${os.homedir()}/note`]],
    ['cd sub && echo x > f', ['f'], ['.', 'sub']],
    ['exec 3>log; echo hi >&3', ['log']],
    ['ls | tee >(grep x) > /dev/null', ['/dev/null']],
    ['cat < in.txt', []],
  ])('%j writes %j', (line, targets, dirs = ['.']) => {
    const a = analyzeShell(line)
    expect(a.writes.map((w) => w.target)).toEqual(targets)
    expect(a.dirs).toEqual(dirs)
  })
})

describe('decodeAnsiC', () => {
  it.each<[string, string]>([
    ['\\x72m', 'rm'],
    ['\\162m', 'rm'],
    ['r\\u006d', 'rm'],
    ['\\U0001F600', '😀'],
    ['a\\tb\\nc', 'a\tb\nc'],
    ["it\\'s", "it's"],
    ['\\cA', '\x01'],
    ['r\\x00m', 'r'],
    ['\\q', '\\q'],
  ])('%j → %j', (body, value) => {
    expect(decodeAnsiC(body)).toBe(value)
  })
})

describe('command patterns', () => {
  it.each<[string, string, boolean]>([
    ['rm *', 'rm a/../b', true],
    ['rm *', 'rm "a\nb"', true],
    ['rm *', 'rmdir x', false],
    ['git status*', 'git status --short', true],
    ['npm run test', 'npm run test', true],
    ['npm run test', 'npm run test2', false],
    ['git push \\*', 'git push *', true],
    ['git push \\*', 'git push origin', false],
    ['r[mn] *', 'rn x', true],
    ['r[!m] *', 'rm x', false],
    ['ls ?', 'ls a', true],
    ['echo (a)', 'echo (a)', true],
    ['echo [', 'echo [', true],
  ])('%j vs %j → %s', (pattern, subject, matches) => {
    expect(commandPatternRegExp(pattern).test(subject)).toBe(matches)
  })
})
