import { defineConfig } from 'vitest/config'

// End-to-end: Debian Chromium (playwright-core) against `agentry serve`, one file at a time.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
})
