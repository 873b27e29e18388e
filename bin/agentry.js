#!/usr/bin/env node
// The `agentry` command. The CLI is bundled by `npm run build` (also run by `npm ci` through `prepare`).
// Builtins through process.getBuiltinModule, not `import`: an ES import of a builtin builds a facade that loads
// all of it (fs streams, …), a cost every command would pay at start (see scripts/build-cli.mjs).
const { existsSync } = process.getBuiltinModule?.('node:fs') ?? (await import('node:fs'))
const module = process.getBuiltinModule?.('node:module') ?? (await import('node:module')).default
const { fileURLToPath } = process.getBuiltinModule?.('node:url') ?? (await import('node:url'))

const entry = new URL('../out/cli/agentry.mjs', import.meta.url)
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('agentry: the CLI is not built yet. Run `npm run build` in the Agentry folder, then try again.\n')
  process.exit(2)
}
// Node ≥ 22.1 can cache compiled code between runs, which roughly halves start-up; older Node just skips it.
module.enableCompileCache?.()
const { main } = await import(entry.href)
process.exitCode = await main(process.argv.slice(2))
