// Bundles the CLI/daemon entry into out/cli so `agentry` starts fast (one file to parse, providers loaded lazily).
import { build } from 'esbuild'

await build({
  entryPoints: { agentry: 'src-main/cli/bin.ts' },
  outdir: 'out/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outExtension: { '.js': '.mjs' },
  external: ['better-sqlite3', 'electron'],
  banner: { js: "import { createRequire as __agentryRequire } from 'node:module'; const require = __agentryRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: 'warning',
})
