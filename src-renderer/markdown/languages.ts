import type { LanguageFn } from 'highlight.js'

/**
 * highlight.js grammars the transcript can load, each its own chunk fetched the first time a code block uses it.
 * Names are what models write after the fence; aliases point at the grammar that handles them.
 */
type Loader = () => Promise<{ default: LanguageFn }>

const LOADERS: Record<string, Loader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  go: () => import('highlight.js/lib/languages/go'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  ini: () => import('highlight.js/lib/languages/ini'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  lua: () => import('highlight.js/lib/languages/lua'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  plaintext: () => import('highlight.js/lib/languages/plaintext'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
}

const ALIASES: Record<string, string> = {
  sh: 'bash', zsh: 'bash', console: 'shell', shellsession: 'shell',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript',
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  py: 'python', rb: 'ruby', rs: 'rust', golang: 'go', kt: 'kotlin', cs: 'csharp', 'c#': 'csharp',
  'c++': 'cpp', cc: 'cpp', h: 'c', hpp: 'cpp',
  yml: 'yaml', toml: 'ini', conf: 'ini', jsonc: 'json', json5: 'json',
  html: 'xml', htm: 'xml', svg: 'xml', xhtml: 'xml',
  md: 'markdown', docker: 'dockerfile', make: 'makefile', mk: 'makefile',
  patch: 'diff', udiff: 'diff', text: 'plaintext', txt: 'plaintext', plain: 'plaintext', gql: 'graphql',
  postgres: 'sql', postgresql: 'sql', mysql: 'sql', sqlite: 'sql',
}

/** The grammar for a fence's info string (`ts`, `TypeScript`, `py title="x"`), or null when we have none. */
export function grammarName(info: string): string | null {
  const lang = info.trim().split(/\s+/)[0]?.toLowerCase() ?? ''
  if (!lang) return null
  const name = ALIASES[lang] ?? lang
  return name in LOADERS ? name : null
}

export function loadGrammar(name: string): Promise<LanguageFn> {
  const loader = LOADERS[name]
  if (!loader) return Promise.reject(new Error(`no grammar named ${name}`))
  return loader().then((m) => m.default)
}
