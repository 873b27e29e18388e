import type { CompactPermission, PermissionAction } from '../../../src-shared'

/**
 * The adversarial bash table (issue 9): each line with its expected decision under three rule sets. Every line
 * runs in a workspace holding the files `x`, `y`, `z` and `w`, which `rm` would delete; rm is denied by all three
 * sets, so a line that is allowed must leave them all in place. A line with a marker creates that file when it runs.
 */
export const RULE_SETS = {
  /** the issue's `{ "bash": { "*": "allow", "rm *": "deny" } }`; write_file falls to the build agent's own `*: allow` */
  allowAllButRm: { bash: { '*': 'allow', 'rm *': 'deny' } },
  /** the README's example */
  askDefault: { bash: { '*': 'ask', 'git status*': 'allow', 'rm *': 'deny' } },
  /** reading only: a few read commands, every other tool denied */
  readOnly: {
    '*': 'deny',
    read_file: 'allow',
    grep: 'allow',
    bash: { '*': 'deny', 'ls *': 'allow', 'cat *': 'allow', 'echo *': 'allow', 'pwd': 'allow', 'git status*': 'allow', 'git log*': 'allow', 'wc *': 'allow', 'head *': 'allow', 'grep *': 'allow' },
  },
} satisfies Record<string, CompactPermission>

export type RuleSetName = keyof typeof RULE_SETS
type A = PermissionAction

export interface BashLine {
  line: string
  allowAllButRm: A
  askDefault: A
  readOnly: A
  /** the file this line creates when it runs */
  marker?: string
}

const row = (line: string, allowAllButRm: A, askDefault: A, readOnly: A, marker?: string): BashLine => ({ line, allowAllButRm, askDefault, readOnly, ...(marker ? { marker } : {}) })
const deny3 = (line: string) => row(line, 'deny', 'deny', 'deny')
const ask3 = (line: string) => row(line, 'ask', 'ask', 'ask')

export const BASH_LINES: BashLine[] = [
  // The 24 ways to run rm that the issue tried.
  deny3('rm -f x'),
  deny3('ls; rm -f x'),
  deny3('ls && rm -f x'),
  deny3('echo $(rm -f x)'),
  deny3('sudo rm -f x'),
  deny3('(rm -f x)'),
  deny3('bash -c "rm -f x"'),
  deny3("sh -c 'rm -f x'"),
  deny3('eval "rm -f x"'),
  deny3('env rm -f x'),
  deny3('command rm -f x'),
  deny3('nice rm -f x'),
  deny3('exec rm -f x'),
  deny3('timeout 5 rm -f x'),
  deny3('echo x | xargs rm -f'),
  deny3('find . -name x -exec rm {} \\;'),
  deny3("'rm' -f x"),
  deny3('"rm" -f x'),
  deny3('r\\m -f x'),
  deny3('/bin/rm -f x'),
  deny3('\\rm -f x'),
  deny3('f() { rm -f x; }; f'),
  deny3('case a in a) rm -f x;; esac'),
  deny3('y=$(rm -f x)'),
  // What the hand-written splitter misread.
  deny3("git status $'\\''; rm -f x"),
  deny3('git status y\\ #; rm -f z'),
  row("git status ${v:='$(rm -f w)'} ${v@P}", 'ask', 'ask', 'ask'),
  deny3('rm\tx'),
  row("git -c alias.st='!rm -f x' st", 'ask', 'ask', 'deny'),
  row("git -c core.fsmonitor='rm -f x' status", 'ask', 'ask', 'deny'),
  row('git -c core.pager="rm -f x" log', 'ask', 'ask', 'deny'),
  // Command names only known at run time.
  row('$(printf rm) -f x', 'ask', 'ask', 'deny'),
  row('bash -c "$CMD"', 'ask', 'ask', 'deny'),
  row('eval "$(printf \'rm -f x\')"', 'ask', 'ask', 'deny'),
  row("v='$(rm -f x)'; echo ${v@P}", 'ask', 'ask', 'ask'),
  row('c=rm; $c -f x', 'ask', 'ask', 'deny'),
  row('IFS=,; c=rm,-f,x; $c', 'ask', 'ask', 'deny'),
  row('"$(echo rm)" -f x', 'ask', 'ask', 'deny'),
  row('`echo rm` -f x', 'ask', 'ask', 'deny'),
  row('RM=rm; $RM -f x', 'ask', 'ask', 'deny'),
  row('${RM:-rm} -f x', 'ask', 'ask', 'deny'),
  // Words that only look harmless.
  deny3("$'\\x72m' -f x"),
  deny3("$'\\162m' -f x"),
  deny3("$'r\\u006d' -f x"),
  deny3('r""m -f x'),
  deny3("r''m -f x"),
  deny3('"r"m -f x'),
  deny3('./../../../bin/rm -f x'),
  row('{r,}m -f x', 'ask', 'ask', 'deny'),
  row('/bin/r? -f x', 'ask', 'ask', 'deny'),
  deny3('/b*/rm -f x'),
  row('r[m] -f x', 'ask', 'ask', 'deny'),
  row('rm{,} -f x', 'ask', 'ask', 'deny'),
  // Aliases.
  deny3("alias ll='rm -f x'"),
  deny3("shopt -s expand_aliases; alias ll='rm -f x'; ll"),
  deny3("alias ls='rm -f x'; ls"),
  // Separators inside quotes are data.
  row('echo "a;rm -f x"', 'allow', 'ask', 'allow'),
  row("echo 'a && rm -f x'", 'allow', 'ask', 'allow'),
  row('echo "a & rm -f x"', 'allow', 'ask', 'allow'),
  row('echo "a | rm -f x"', 'allow', 'ask', 'allow'),
  row('echo "$(echo hi) rm"', 'allow', 'ask', 'allow'),
  row('echo a#b; touch m1', 'allow', 'ask', 'deny', 'm1'),
  row('echo "x" # ; rm -f x', 'allow', 'ask', 'allow'),
  row("echo '`rm -f x`'", 'allow', 'ask', 'allow'),
  row('echo "\\$(rm -f x)"', 'allow', 'ask', 'allow'),
  row("printf '%s\\n' 'rm -f x'", 'allow', 'ask', 'deny'),
  row('echo rm -f x', 'allow', 'ask', 'allow'),
  // Newlines separate commands; a backslash-newline does not.
  deny3('ls\nrm -f x'),
  row('touch m2\nls', 'allow', 'ask', 'deny', 'm2'),
  row('ls \\\n  -la', 'allow', 'ask', 'allow'),
  deny3('ls\r\nrm -f x'),
  // Here-documents are data unless a shell reads them.
  row('cat <<EOF\nrm -f x\nEOF', 'allow', 'ask', 'allow'),
  row("cat <<'EOF'\n$(rm -f x)\nEOF", 'allow', 'ask', 'allow'),
  deny3('cat <<EOF\n$(rm -f x)\nEOF'),
  deny3("bash <<'EOF'\nrm -f x\nEOF"),
  row('sh <<EOF\ntouch m3\nEOF', 'allow', 'ask', 'deny', 'm3'),
  row('cat <<EOF | bash\nrm -f x\nEOF', 'ask', 'ask', 'ask'),
  row('cat <<EOF > out4\nhello\nEOF', 'allow', 'ask', 'deny', 'out4'),
  row('bash <<EOF\n$(echo rm) -f x\nEOF', 'ask', 'ask', 'ask'),
  row('cat <<-EOF\n\trm -f x\n\tEOF', 'allow', 'ask', 'allow'),
  // Nested substitutions.
  deny3('echo $(echo $(rm -f x))'),
  deny3('echo "$(echo "$(rm -f x)")"'),
  row('x2=$(echo $(touch m5))', 'allow', 'ask', 'deny', 'm5'),
  deny3('echo ${q:-$(rm -f x)}'),
  deny3('echo $(( $(rm -f x) + 1 ))'),
  deny3('a[$(rm -f x)]=1'),
  deny3('for i in $(rm -f x); do echo $i; done'),
  deny3('[[ $(rm -f x) ]]'),
  deny3('echo `rm -f x`'),
  deny3('echo "`rm -f x`"'),
  // Process substitution.
  deny3('diff <(ls) <(rm -f x)'),
  row('cat <(touch m6)', 'allow', 'ask', 'deny', 'm6'),
  deny3('echo hi > >(rm -f x)'),
  deny3('tee >(rm -f x) < /dev/null'),
  row('source <(echo rm -f x)', 'ask', 'ask', 'deny'),
  // Here-strings.
  row('cat <<< "rm -f x"', 'allow', 'ask', 'allow'),
  deny3('bash <<< "rm -f x"'),
  deny3('cat <<< "$(rm -f x)"'),
  row("sh <<< 'touch m7'", 'allow', 'ask', 'deny', 'm7'),
  row('bash <<< "$CMD"', 'ask', 'ask', 'deny'),
  // The unwrap table, and what it cannot unwrap.
  deny3('sudo -u root rm -f x'),
  deny3('doas rm -f x'),
  deny3('nohup rm -f x'),
  deny3('time rm -f x'),
  deny3('stdbuf -oL rm -f x'),
  deny3('builtin command rm -f x'),
  deny3('env -i PATH=/bin rm -f x'),
  deny3('xargs -0 -n1 rm -f < /dev/null'),
  deny3('find . -name x -execdir rm -f {} +'),
  row('find . -maxdepth 0 -exec touch m8 \\;', 'allow', 'ask', 'deny', 'm8'),
  deny3('parallel rm -f ::: x'),
  deny3('watch -n1 rm -f x'),
  deny3("timeout -s KILL 5 bash -c 'rm -f x'"),
  deny3('nice -n 5 sh -c "eval \'rm -f x\'"'),
  deny3('exec -a foo rm -f x'),
  row('command -v rm', 'allow', 'ask', 'deny'),
  row('timeout --weird 5 rm -f x', 'ask', 'ask', 'deny'),
  deny3("xargs sh -c 'rm -f x' < /dev/null"),
  deny3("git rebase -x 'rm -f x' HEAD"),
  deny3("git submodule foreach 'rm -f x'"),
  deny3('git bisect run rm -f x'),
  deny3('coproc rm -f x'),
  deny3("trap 'rm -f x' EXIT"),
  deny3("su -c 'rm -f x'"),
  // Variables that make another program run something.
  deny3("PAGER='rm -f x' git log"),
  row("GIT_SSH_COMMAND='touch m9' git status", 'allow', 'ask', 'deny'),
  row('LD_PRELOAD=/tmp/x.so ls', 'ask', 'ask', 'deny'),
  row("env 'BASH_FUNC_ls%%=() { rm -f x; }' bash -c ls", 'ask', 'ask', 'ask'),
  ask3('BASH_ENV=./evil.sh bash -c ls'),
  deny3("export GIT_EXTERNAL_DIFF='rm -f x'"),
  row("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -f x' git log", 'ask', 'ask', 'deny'),
  row('FOO=1 touch m10', 'allow', 'ask', 'deny', 'm10'),
  row("x3='a[$(rm -f x)]'; echo $((x3))", 'ask', 'ask', 'ask'),
  row("declare -i n='a[$(rm -f x)]'", 'ask', 'ask', 'deny'),
  row("printf -v 'a[$(rm -f x)]' 1", 'ask', 'ask', 'deny'),
  // Redirect targets are file writes.
  deny3('echo pwned > ../outside.txt'),
  row('echo hi > out11.txt', 'allow', 'ask', 'deny', 'out11.txt'),
  row('echo hi > /dev/null', 'allow', 'ask', 'allow'),
  row('echo hi 2>&1 >&2', 'allow', 'ask', 'allow'),
  deny3('echo hi | tee ../t.txt'),
  deny3('echo hi >> ~/agentry-adversarial.txt'),
  deny3('cd .. && echo hi > escaped.txt'),
  row('echo hi > "$OUT"', 'ask', 'ask', 'ask'),
  deny3('echo hi &> ../o.txt'),
  deny3('echo hi >| /etc/agentry-test'),
  deny3('dd if=/dev/zero of=../d bs=1 count=1'),
  row('ls > /dev/stderr', 'allow', 'ask', 'allow'),
  row('echo hi > *.txt', 'ask', 'ask', 'ask'),
  // Everyday lines.
  row('ls -la && git status', 'allow', 'ask', 'allow'),
  row('git status', 'allow', 'allow', 'allow'),
  row('git status --short | head -5', 'allow', 'ask', 'allow'),
  row('touch m12', 'allow', 'ask', 'deny', 'm12'),
  row('if true; then touch m13; fi', 'allow', 'ask', 'deny', 'm13'),
  deny3('while false; do rm -f x; done'),
  deny3('{ rm -f x; }'),
  deny3('! rm -f x'),
  row('true && { touch m14; }', 'allow', 'ask', 'deny', 'm14'),
  row('echo $HOME', 'allow', 'ask', 'allow'),
  deny3('rm'),
  deny3('function g { rm -f x; }'),
  row('ls /bin/r*', 'allow', 'ask', 'allow'),
  row('git log --oneline -1 2>/dev/null', 'allow', 'ask', 'allow'),
  row('x4=1; touch m15', 'allow', 'ask', 'deny', 'm15'),
  deny3('unset x; rm -f x'),
  row('cat x | wc -l', 'allow', 'ask', 'allow'),
  row('grep -r "rm -f" . | head -1', 'allow', 'ask', 'allow'),
  row('( cd sub 2>/dev/null; ls )', 'allow', 'ask', 'deny'),
  deny3('ls & rm -f x'),
  // Less common constructs.
  row('coproc { rm -f x; }', 'ask', 'ask', 'deny'),
  deny3('until rm -f x; do :; done'),
  deny3('(( $(rm -f x) ))'),
  deny3('select v in $(rm -f x); do :; done'),
  deny3('mapfile -t a < <(rm -f x)'),
  deny3('echo ${q/$(rm -f x)/z}'),
  deny3('a=(1 $(rm -f x))'),
  deny3(`sh -c 'rm -f "$1"' _ x`),
  deny3('nohup bash -c "rm -f x" &'),
  deny3('function f2() ( rm -f x )'),
  row('hash -p /bin/rm ls; ls -f x', 'ask', 'ask', 'deny'),
  deny3('source /dev/stdin <<< "rm -f x"'),
  deny3('bash /dev/stdin <<< "rm -f x"'),
  deny3(". /dev/fd/0 <<< 'rm -f x'"),
  row('bash /dev/fd/3 3< script.sh', 'ask', 'ask', 'deny'),
  deny3("script -qc 'rm -f x' /dev/null"),
  deny3("su -lc 'rm -f x'"),
  deny3("busybox sh -c 'rm -f x'"),
  row('enable -f ./evil.so ls; ls', 'ask', 'ask', 'deny'),
  row('set -- rm -f x; "$@"', 'ask', 'ask', 'deny'),
  deny3('ls || rm -f x'),
  deny3('ls |& rm -f x'),
  // Issue 28: read-only commands may run without asking; these read outside the workspace or write, so they may not.
  row('cat /etc/hostname', 'allow', 'ask', 'allow'),
  row('cat ../outside.txt', 'allow', 'ask', 'allow'),
  row('git diff --no-index /etc/hostname x', 'allow', 'ask', 'deny'),
  row('find . -maxdepth 0 -fprint m16', 'allow', 'ask', 'deny', 'm16'),
  row('sort -o m17 x', 'allow', 'ask', 'deny', 'm17'),
  row('uniq x m18', 'allow', 'ask', 'deny', 'm18'),
  row('sed -n 1p x -i', 'allow', 'ask', 'deny'),
  row('cat x | xargs cat', 'allow', 'ask', 'allow'),
]

/**
 * The lines that run without asking under `askDefault` once read-only commands do (issue 28, `sandbox.readOnlyAutoAllow`):
 * each only reads inside the workspace. No other line's decision may change — no attack newly passes.
 */
export const READ_ONLY_ALLOWED = new Set([
  'ls \\\n  -la',
  'cat <<< "rm -f x"',
  'ls > /dev/stderr',
  'ls -la && git status',
  'git status --short | head -5',
  'git log --oneline -1 2>/dev/null',
  'cat x | wc -l',
  'grep -r "rm -f" . | head -1',
])
