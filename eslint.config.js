// Lint: TypeScript rules plus the import boundaries from docs/architecture (who may import what).
import tseslint from 'typescript-eslint'

const nodeBuiltins = ['fs', 'path', 'os', 'child_process', 'http', 'net', 'crypto', 'url', 'util', 'stream', 'events', 'worker_threads']
const nodeImports = nodeBuiltins.flatMap((m) => [m, `node:${m}`])

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'e2e/artifacts/**', 'docs/**', 'dist/**', '**/*.snap'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
      'prefer-const': 'error',
    },
  },
  {
    files: ['src-shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...nodeImports, 'electron', 'react'], patterns: ['../src-main/*', '../src-renderer/*', '../../src-main/*', '../../src-renderer/*'] }],
    },
  },
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/electron/**'],
    rules: { 'no-restricted-imports': ['error', { paths: ['electron'], patterns: ['**/src-renderer/**'] }] },
  },
  {
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: [...nodeImports, 'electron', 'better-sqlite3'], patterns: ['**/src-main/**'] }],
      // The page's `window.agentry` type is the preload's own; nothing else of the preload reaches the page.
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['**/src-preload/**'], allowTypeImports: true }] }],
    },
  },
)
