import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

/** Newest modification time under a folder (to rebuild only when the renderer sources changed). */
function newest(dir: string): number {
  let t = 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs)
  }
  return t
}

/**
 * Builds `src-renderer/` into `outDir` (default `out/renderer`, where `agentry serve` looks) unless a build newer
 * than every source file is already there. Uses Vite's API with the React plugin, like the app build does.
 */
export async function buildRenderer(outDir = path.join(repo, 'out', 'renderer')): Promise<string> {
  const index = path.join(outDir, 'index.html')
  const sources = Math.max(newest(path.join(repo, 'src-renderer')), newest(path.join(repo, 'src-shared')))
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs > sources) return outDir
  const { build } = await import('vite')
  const { default: react } = await import('@vitejs/plugin-react')
  // Vitest runs with NODE_ENV=test, which Vite would bake into the bundle: React's development build (several times
  // slower, with dev-only warnings) instead of the production one the app ships. Build what a person runs.
  const env = process.env.NODE_ENV
  process.env.NODE_ENV = 'production'
  try {
    await build({
      root: path.join(repo, 'src-renderer'),
      base: './',
      configFile: false,
      logLevel: 'warn',
      mode: 'production',
      plugins: [react()],
      build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 2000 },
    })
  } finally {
    if (env === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = env
  }
  return outDir
}

export const REPO_ROOT = repo
