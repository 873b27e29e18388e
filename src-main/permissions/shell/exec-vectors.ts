/**
 * Settings that make an allowed-looking command run something else: environment variables and git config keys.
 * Kept as data so the list is easy to review and extend.
 */

/** Variables whose value is a command line some program runs (parsed and checked like the line itself). */
const COMMAND_VARS = new Set([
  'PAGER', 'GIT_PAGER', 'MANPAGER', 'SYSTEMD_PAGER', 'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_EDITOR', 'EDITOR', 'VISUAL',
  'GIT_SEQUENCE_EDITOR', 'GIT_EXTERNAL_DIFF', 'GIT_PROXY_COMMAND', 'GIT_ASKPASS', 'SSH_ASKPASS', 'SUDO_ASKPASS',
  'PROMPT_COMMAND', 'BROWSER', 'FCEDIT', 'LESSOPEN', 'LESSCLOSE',
])

/** Variables that load code or configuration a program then runs: never judged as harmless. */
const CODE_VARS = new Set([
  'LD_PRELOAD', 'LD_AUDIT', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'BASH_ENV', 'ENV',
  'NODE_OPTIONS', 'PERL5OPT', 'PERL5LIB', 'PERLLIB', 'RUBYOPT', 'RUBYLIB', 'PYTHONSTARTUP', 'PYTHONPATH', 'PYTHONHOME',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'LUA_INIT', 'SHELLOPTS', 'BASHOPTS', 'PS1', 'PS2', 'PS3', 'PS4',
  'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_CONFIG', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
])
const CODE_VAR_PREFIXES = ['GIT_CONFIG_KEY_', 'GIT_CONFIG_VALUE_', 'BASH_FUNC_']

export type AssignmentRisk = 'command' | 'code' | null

/** What setting `name` for a command can do: run a command line (`command`), load code (`code`), or nothing. */
export function assignmentRisk(name: string): AssignmentRisk {
  if (COMMAND_VARS.has(name)) return 'command'
  if (CODE_VARS.has(name) || CODE_VAR_PREFIXES.some((p) => name.startsWith(p))) return 'code'
  return null
}

/**
 * `git -c KEY=VALUE` keys that only change output or identity. Anything else may run a command (`alias.*=!…`,
 * `core.fsmonitor`, `core.sshCommand`, `core.pager`, `diff.*.textconv`, `filter.*`, `credential.helper`,
 * `include.path`, …), so an unlisted key asks: a short allow-list ages better than a deny-list.
 */
const SAFE_GIT_KEYS: RegExp[] = [
  /^color\./,
  /^(user|author|committer)\.(name|email)$/,
  /^advice\./,
  /^core\.(quotepath|autocrlf|safecrlf|abbrev|ignorecase|filemode|eol|whitespace|longpaths|precomposeunicode|commentchar)$/,
  /^init\.defaultbranch$/,
  /^log\.(date|decorate|showsignature|follow|abbrevcommit)$/,
  /^format\.(pretty|numbered)$/,
  /^i18n\./,
  /^column\.ui$/,
  /^status\.(short|branch|showuntrackedfiles|relativepaths)$/,
  /^diff\.(noprefix|renames|algorithm|mnemonicprefix|colormoved|context|indentheuristic|statgraphwidth)$/,
  /^merge\.(conflictstyle|ff|log)$/,
  /^pull\.(rebase|ff)$/,
  /^push\.(default|autosetupremote)$/,
  /^fetch\.(prune|prunetags)$/,
  /^(commit|tag)\.gpgsign$/,
  /^rebase\.(autosquash|autostash|updaterefs)$/,
  /^safe\.directory$/,
  /^protocol\.version$/,
  // Not here on purpose: pager.<cmd>, core.pager, core.editor and the like name a program to run.
]

/** Why `git -c KEY=VALUE` needs a person, or null when the key is harmless. */
export function gitConfigRisk(keyValue: string): string | null {
  const eq = keyValue.indexOf('=')
  const key = (eq === -1 ? keyValue : keyValue.slice(0, eq)).toLowerCase()
  if (SAFE_GIT_KEYS.some((re) => re.test(key))) return null
  return `git -c ${key} can make git run a command (aliases with "!", core.fsmonitor, core.sshCommand, core.pager, …)`
}
