import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'

/**
 * `npx electron-vite build` bundles the three parts into out/ (no Electron binary needed to build):
 * - out/main: Electron main (src-main/electron/main.ts and the host it composes). Dependencies stay external and
 *   load from node_modules at runtime — better-sqlite3 in particular is a native module and cannot be bundled.
 * - out/preload/index.cjs: the sandboxed preload. Sandboxed preloads cannot be ES modules, hence CommonJS.
 * - out/renderer: the React UI, also served by `agentry serve`.
 */
/**
 * electron-vite forces `base: './'` for production (made for file:// loading). Both app://agentry/ and the daemon
 * serve the build at the root, and a deep link such as /sessions/x (answered with index.html) must still find
 * /assets/…, so the base is set back to '/' after electron-vite's preset has run.
 */
function absoluteBase(): Plugin {
  return { name: 'agentry:absolute-base', enforce: 'post', config: () => ({ base: '/' }) }
}

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rolldownOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          // The tools' worker threads run their own files (src-main/tools/worker-pool.ts finds them beside the main code).
          'grep-worker': resolve(__dirname, 'src-main/tools/grep-worker.ts'),
          'html-worker': resolve(__dirname, 'src-main/tools/html-worker.ts'),
        },
        external: ['electron', 'better-sqlite3'],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rolldownOptions: {
        input: { index: resolve(__dirname, 'src-preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react(), absoluteBase()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      emptyOutDir: true,
      rolldownOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
})
