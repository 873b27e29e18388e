import { afterEach } from 'vitest'
import { makeContext, type TestContext } from './test-context'

/**
 * Test support: `makeContext` for one test file, every context made cleaned up (temp workdir and saved output
 * removed) after each test. Call it at the top level of the file.
 */
export function contextsPerTest(defaults: Parameters<typeof makeContext>[0] = {}): (files?: Record<string, string | Buffer>) => TestContext {
  const made: TestContext[] = []
  afterEach(() => made.splice(0).forEach((c) => c.cleanup()))
  return (files = {}) => {
    const ctx = makeContext({ ...defaults, files })
    made.push(ctx)
    return ctx
  }
}
