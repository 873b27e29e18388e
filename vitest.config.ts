import { defineConfig } from 'vitest/config'

// Unit and integration tests (Node). The browser suite is vitest.e2e.config.ts.
export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.ts'],
    // Upper bounds for a hang, with room for a machine at load 8 on 2 cores (tests assert order, not speed).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
