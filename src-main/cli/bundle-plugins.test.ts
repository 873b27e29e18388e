import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { afterAll, expect, it } from 'vitest'

/**
 * The CLI bundle's builtins plugin (scripts/esbuild-plugins.mjs): a static import of a Node builtin becomes a
 * process.getBuiltinModule value (no ES facade loading all of the builtin at start), a dynamic import() stays
 * Node's own module (code destructures its namespace), and the bundled code behaves as before.
 */
const REPO = path.resolve(import.meta.dirname, '../..')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-bundle-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

const SOURCE = `
import fs, { existsSync } from 'node:fs'
import * as path from 'path'
import { createHash } from 'node:crypto'
export async function probe(file) {
  const { createRequire } = await import('node:module')
  return {
    exists: existsSync(file) && fs.statSync(file).isFile(),
    base: path.basename(file),
    hash: createHash('sha256').update('x').digest('hex').slice(0, 8),
    require: typeof createRequire(import.meta.url),
  }
}
`

it('static builtin imports come from process.getBuiltinModule; dynamic ones stay imports; the code still works', async () => {
  const { builtinsWithoutFacade } = (await import(pathToFileURL(path.join(REPO, 'scripts/esbuild-plugins.mjs')).href)) as { builtinsWithoutFacade: Plugin }
  const out = await build({
    stdin: { contents: SOURCE, loader: 'js', resolveDir: dir },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    plugins: [builtinsWithoutFacade],
  })
  const code = out.outputFiles[0].text
  expect(code).not.toMatch(/\bfrom\s*["'](node:)?(fs|path|crypto)["']/)
  expect(code).toContain('process.getBuiltinModule("node:fs")')
  expect(code).toContain('process.getBuiltinModule("node:path")')
  expect(code).toMatch(/import\(["']node:module["']\)/)

  const file = path.join(dir, 'bundled.mjs')
  fs.writeFileSync(file, code)
  const { probe } = (await import(pathToFileURL(file).href)) as { probe(f: string): Promise<Record<string, unknown>> }
  expect(await probe(file)).toEqual({ exists: true, base: 'bundled.mjs', hash: '2d711642', require: 'function' })
})
