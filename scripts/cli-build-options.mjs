// The CLI bundle's esbuild options: used by build-cli.mjs, and by the start-up test that reads the bundle's import
// graph (src-main/cli/start-graph.test.ts) without writing anything.
import { builtinsWithoutFacade, zodEnglishOnly } from './esbuild-plugins.mjs'

export const cliBuildOptions = {
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
  // dockerode (containers, issue 29) loads ssh2's and cpu-features' native addons: left to node_modules like better-sqlite3.
  external: ['better-sqlite3', 'electron', 'dockerode'],
  banner: { js: "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);" },
  minify: true,
  keepNames: true,
  sourcemap: true,
  plugins: [zodEnglishOnly, builtinsWithoutFacade],
  logLevel: 'warning',
}
