#!/usr/bin/env node
// The `agentry` command. The CLI is bundled by `npm run build` (also run by `npm ci` through `prepare`).
import { existsSync } from 'node:fs'
import module from 'node:module'
import { fileURLToPath } from 'node:url'

const entry = new URL('../out/cli/agentry.mjs', import.meta.url)
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('agentry: the CLI is not built yet. Run `npm run build` in the Agentry folder, then try again.\n')
  process.exit(2)
}
// Node ≥ 22.1 can cache compiled code between runs, which roughly halves start-up; older Node just skips it.
module.enableCompileCache?.()
const { main } = await import(entry.href)
process.exitCode = await main(process.argv.slice(2))
