import fs from 'node:fs'
import { createRequire } from 'node:module'
import { Language, Parser } from 'web-tree-sitter'

/**
 * The bash grammar (tree-sitter-bash, compiled to wasm) and its runtime (web-tree-sitter), loaded once per process
 * on first use: the bash tool's `prepare` step awaits it before its permission is decided, so a run that never
 * judges a command line (most one-shot `agentry run`s, the ACP server answering a question) never pays for it.
 * Both `.wasm` files are read from node_modules by path and handed to the runtime as bytes, so the CLI bundle
 * (out/cli), the Electron main bundle (out/main) and the sources all find them the same way: through Node's module
 * resolution from this file's location.
 */

/** Node's WebAssembly global; the project's `lib` (ES2023, no DOM) does not declare it. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<Parameters<typeof Language.loadSync>[0]> } }).WebAssembly

let loading: Promise<void> | undefined
let parser: Parser | undefined
let loadError: Error | undefined

/** Where the two wasm files are; throws a message naming the missing package. */
export function grammarFiles(): { runtime: string; bash: string } {
  const require = createRequire(import.meta.url)
  const locate = (pkg: string, file: string): string => {
    try {
      return require.resolve(`${pkg}/${file}`)
    } catch (err) {
      throw new Error(`The shell parser needs ${file} from the npm package "${pkg}" (${(err as Error).message}). Run npm install in the Agentry folder.`)
    }
  }
  return { runtime: locate('web-tree-sitter', 'web-tree-sitter.wasm'), bash: locate('tree-sitter-bash', 'tree-sitter-bash.wasm') }
}

/**
 * Loads the grammar once (later calls share the first load). A failure is kept and reported by `shellParser()`
 * as a reason to ask, never as an allow.
 */
export function loadShellGrammar(): Promise<void> {
  loading ??= (async () => {
    try {
      const files = grammarFiles()
      // The grammar (1.3 MB of wasm) compiles on V8's background threads while the runtime initialises.
      const [, compiled] = await Promise.all([Parser.init({ wasmBinary: fs.readFileSync(files.runtime) }), wasm.compile(fs.readFileSync(files.bash))])
      const language = Language.loadSync(compiled)
      const p = new Parser()
      p.setLanguage(language)
      // No warm-up parse: a line touching most of the grammar made V8 tier ~0.5 s of wasm up to TurboFan, which a
      // short-lived process then waited for at exit; the baseline compiler parses a first line in milliseconds.
      parser = p
    } catch (err) {
      loadError = err instanceof Error ? err : new Error(String(err))
    }
  })()
  return loading
}

export type ShellParserState = { ok: true; parser: Parser } | { ok: false; reason: string }

/** The loaded parser, or why there is none. Calling this before `loadShellGrammar()` is a programming error. */
export function shellParser(): ShellParserState {
  if (parser) return { ok: true, parser }
  if (loadError) return { ok: false, reason: `the shell parser could not be loaded: ${loadError.message}` }
  throw new Error('The shell parser is not loaded yet: await loadShellGrammar() (the bash tool\'s prepare step does) before deciding bash permissions.')
}
