import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, type BuildOptions, type Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'

/**
 * What every `agentry` command loads before it knows what it will do: the entry chunk and its static imports. A
 * command attached to a running host (and `--help`) needs only the argument parser and a bridge client; building
 * zod's schemas, the host or a provider at module load is what made those commands cost 2–3× a bare Node start.
 * This builds the CLI bundle in memory (nothing is written) and reads its import graph.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

async function staticInputsOfEntry(): Promise<string[]> {
  const optionsFile = path.join(repo, 'scripts/cli-build-options.mjs')
  const { cliBuildOptions } = (await import(optionsFile)) as { cliBuildOptions: BuildOptions }
  const result = await build({ ...cliBuildOptions, absWorkingDir: repo, write: false, metafile: true, sourcemap: false, logLevel: 'silent' })
  const meta: Metafile = result.metafile
  const seen = new Set<string>()
  const walk = (out: string) => {
    if (seen.has(out)) return
    seen.add(out)
    for (const i of meta.outputs[out]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) walk(i.path)
  }
  walk('out/cli/agentry.mjs')
  return [...seen].flatMap((out) => Object.keys(meta.outputs[out].inputs))
}

describe('the CLI entry', () => {
  it('loads no schemas, host or provider until a command needs them', async () => {
    const inputs = await staticInputsOfEntry()
    expect(inputs.some((i) => i.startsWith('src-main/cli/main.ts'))).toBe(true)
    // (the host's lock file is read to know whether a host runs: a few lines of fs)
    const heavy = inputs.filter((i) => /node_modules\/(zod|ai|@ai-sdk|yaml|better-sqlite3)\/|^src-main\/(host\/(?!lock\.ts)|runtime|store|models)\/|^src-shared\/(bridge|session|events|config)\.ts$/.test(i))
    expect(heavy).toEqual([])
  }, 60_000)
})
