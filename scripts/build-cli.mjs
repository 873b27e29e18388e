// Bundles the CLI/daemon entry into out/cli so `agentry` starts fast (one file to parse, providers loaded lazily).
import { rmSync } from 'node:fs'
import { build } from 'esbuild'
import { builtinsWithoutFacade, zodEnglishOnly } from './esbuild-plugins.mjs'

rmSync('out/cli', { recursive: true, force: true })

await build({
  // The tools' worker threads run their own files (src-main/tools/worker-pool.ts finds them here).
  entryPoints: {
    agentry: 'src-main/cli/bin.ts',
    'grep-worker': 'src-main/tools/grep-worker.ts',
    'html-worker': 'src-main/tools/html-worker.ts',
  },
  outdir: 'out/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  // jsonc-parser's UMD build requires its files dynamically; its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  target: 'node22',
  outExtension: { '.js': '.mjs' },
  external: ['better-sqlite3', 'electron'],
  banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  minify: true,
  keepNames: true,
  sourcemap: true,
  plugins: [zodEnglishOnly, builtinsWithoutFacade],
  logLevel: 'warning',
})
