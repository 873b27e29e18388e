import { defineConfig } from 'vitest/config'

// Unit and integration tests (Node). The browser suite is vitest.e2e.config.ts.
export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
})
