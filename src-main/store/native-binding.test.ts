import { describe, expect, it } from 'vitest'
import { explainNativeModuleError } from './native-binding'

// The exact wording Node/Electron use when a native module was built for another ABI.
const mismatch = new Error(
  "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 140. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).",
)

describe('native module ABI mismatch', () => {
  it('names both ABIs and the fix, for Electron and for Node', () => {
    const inApp = explainNativeModuleError(mismatch, { electron: '45.4.1', modules: '140' })
    expect(inApp).toContain('built for ABI 115')
    expect(inApp).toContain('Electron 45.4.1 needs ABI 140')
    expect(inApp).toContain('npm start')
    const inNode = explainNativeModuleError(mismatch, { modules: '115' })
    expect(inNode).toContain('npm rebuild better-sqlite3')
  })

  it('leaves other errors alone', () => {
    expect(explainNativeModuleError(new Error('SQLITE_CORRUPT'), { modules: '115' })).toBeUndefined()
  })
})
