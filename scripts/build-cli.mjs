// Bundles the CLI/daemon entry into out/cli so `agentry` starts fast (one file to parse, providers loaded lazily).
import { rmSync } from 'node:fs'
import { build } from 'esbuild'

rmSync('out/cli', { recursive: true, force: true })

// zod re-exports every message locale (~40 languages) through `z.locales`; Agentry only uses its built-in
// English messages, so the CLI bundle gets an empty `locales` namespace: less to parse at every start.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`) ? { path: 'zod-locales', namespace: 'agentry-stub' } : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'agentry-stub' }, () => ({ contents: 'export {}', loader: 'js' }))
  },
}

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
  banner: { js: "import { createRequire as __agentryRequire } from 'node:module'; const require = __agentryRequire(import.meta.url);" },
  minify: true,
  keepNames: true,
  sourcemap: true,
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
})
