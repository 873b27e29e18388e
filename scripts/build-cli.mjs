// Bundles the CLI/daemon entry into out/cli so `agentry` starts fast (one file to parse, providers loaded lazily).
import { rmSync } from 'node:fs'
import { build } from 'esbuild'

rmSync('out/cli', { recursive: true, force: true })

await build({
  entryPoints: { agentry: 'src-main/cli/bin.ts' },
  outdir: 'out/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  // jsonc-parser's UMD build requires its files dynamically; its ESM build bundles cleanly.
  mainFields: ['module', 'main'],
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  external: ['better-sqlite3', 'electron'],
  banner: { js: "import { createRequire as __agentryRequire } from 'node:module'; const require = __agentryRequire(import.meta.url);" },
  minify: true,
  keepNames: true,
  sourcemap: true,
  logLevel: 'warning',
})
