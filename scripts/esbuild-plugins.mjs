// The CLI bundle's esbuild plugins (scripts/build-cli.mjs); src-main/cli/bundle-plugins.test.ts checks them.
import { builtinModules } from 'node:module'

// zod re-exports every message locale (~40 languages) through `z.locales`; Agentry only uses its built-in
// English messages, so the CLI bundle gets an empty `locales` namespace: less to parse at every start.
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`) ? { path: 'zod-locales', namespace: 'agentry-stub' } : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'agentry-stub' }, () => ({ contents: 'export {}', loader: 'js' }))
  },
}

// `import fs from 'node:fs'` in an ES module makes Node build an ES facade of the whole builtin, reading every
// export — which loads the lazy parts (fs streams, promises, …) a command never uses: ~30 ms of a one-shot
// `agentry run`. The bundle takes statically imported builtins from process.getBuiltinModule as CommonJS values
// instead; esbuild's interop reads a named import's property only where it is used.
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))
export const builtinsWithoutFacade = {
  name: 'builtins-without-facade',
  setup(b) {
    // A dynamic import() keeps Node's own module: its result is a namespace (`const { createRequire } = await
    // import('module')`), which a CommonJS value would reduce to `default`.
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
      builtins.has(args.path) && args.kind !== 'dynamic-import' ? { path: args.path.replace(/^node:/, ''), namespace: 'node-builtin' } : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(`node:${args.path}`)})`,
      loader: 'js',
    }))
  },
}
