// Bundles the CLI/daemon entry into out/cli so `agentry` starts fast (one file to parse, providers loaded lazily).
// The bundle is built beside out/cli and swapped in with two renames: a test suite that rebuilds it while another
// suite runs `agentry` from it (unit and e2e at once) never finds the folder empty or half written.
import { renameSync, rmSync } from 'node:fs'
import { build } from 'esbuild'
import { cliBuildOptions } from './cli-build-options.mjs'

const target = cliBuildOptions.outdir
const fresh = `${target}.new-${process.pid}`
const old = `${target}.old-${process.pid}`
rmSync(fresh, { recursive: true, force: true })
await build({ ...cliBuildOptions, outdir: fresh })
// Another build may swap its bundle in between our two renames: then move that one aside too and try again.
const aside = []
for (let attempt = 0; ; attempt++) {
  try {
    renameSync(target, `${old}-${aside.length}`)
    aside.push(`${old}-${aside.length}`)
  } catch (err) {
    if (err.code !== 'ENOENT') throw err
  }
  try {
    renameSync(fresh, target)
    break
  } catch (err) {
    if ((err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') || attempt > 20) throw err
  }
}
for (const dir of aside) rmSync(dir, { recursive: true, force: true })
