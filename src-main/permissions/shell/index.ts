export { loadShellGrammar, shellParser } from './grammar'
export { analyzeShell, commandSubjects, MAX_LINE_CHARS, type ShellAnalysis, type ShellCommand, type ShellWrite } from './analyze'
export { WRAPPER_NAMES } from './unwrap'
