#!/usr/bin/env node
// The `agentry` command. The CLI is bundled by `npm run build` (also run by `npm ci` through `prepare`).
// The bundle takes Node's builtins through process.getBuiltinModule (see scripts/esbuild-plugins.mjs); a Node
// without it is too old to run Agentry at all, so say that rather than fail somewhere inside the bundle.
if (typeof process.getBuiltinModule !== 'function') {
  process.stderr.write(`agentry: Node ${process.versions.node} is too old; Agentry needs Node 22.12 or newer.\n`)
  process.exit(2)
}
// Builtins through process.getBuiltinModule, not `import`: an ES import of a builtin builds a facade that loads
// all of it (fs streams, …), a cost every command would pay at start.
const { existsSync } = process.getBuiltinModule('node:fs')
const module = process.getBuiltinModule('node:module')
const { fileURLToPath } = process.getBuiltinModule('node:url')

const entry = new URL('../out/cli/agentry.mjs', import.meta.url)
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('agentry: the CLI is not built yet. Run `npm run build` in the Agentry folder, then try again.\n')
  process.exit(2)
}
// Node ≥ 22.1 can cache compiled code between runs, which roughly halves start-up; older Node just skips it.
module.enableCompileCache?.()
const { main } = await import(entry.href)
process.exitCode = await main(process.argv.slice(2), { ownProcess: true })
