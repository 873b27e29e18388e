// Lint: TypeScript rules plus the import boundaries of docs/architecture.md — which folder may import which.
// The layer map below is the rule; `src-main/layers.test.ts` shows that a violation fails `npm run lint`.
import tseslint from 'typescript-eslint'

const nodeBuiltins = ['fs', 'path', 'os', 'child_process', 'http', 'net', 'crypto', 'url', 'util', 'stream', 'events', 'worker_threads']
const nodeImports = nodeBuiltins.flatMap((m) => [m, `node:${m}`])

/**
 * Every folder of src-main and the folders it may import (besides itself and src-shared, which every folder may use).
 * Dependencies point one way: leaves → services → loop → runtime → subagents → sessions → host; the bridge knows only
 * the contract; transports (daemon, local-socket, electron) and the CLI sit on top. A folder missing here fails lint
 * until it is placed: see "Where new things go" in docs/architecture.md.
 */
export const LAYERS = {
  // reading files where "missing" is an answer, and Node's error codes: below everything, usable by every folder
  files: [],
  // leaves: no other folder of src-main, except config (YAML reading, the data dir, the loaded configuration)
  config: [],
  store: [],
  models: ['config'],
  permissions: [],
  // tools run bash in the sandbox and judge what a command line writes with the shell parser (permissions)
  tools: ['sandbox', 'permissions', 'containers'],
  'renderer-files': [],
  // the OS sandbox bash commands run in (bubblewrap, Seatbelt)
  sandbox: [],
  // a child's own container (issue 29): the Docker Engine API through dockerode (Docker, Podman, remote engines)
  containers: [],
  // workspace snapshots in a shadow git store, their changes and restoring files (issue 24): a leaf, git and files only
  checkpoints: [],
  agents: ['config', 'permissions'],
  // Agent Skills (issue 27): SKILL.md folders of the person and the workspace, read with config's frontmatter reader
  skills: ['config'],
  // slash commands (issue 27): command files of the person and the workspace, their expansion ($ARGUMENTS, @file, !`cmd`)
  commands: ['config'],
  // Claude Code hooks (issue 27): read from settings.json / config.yaml, run as commands in the bash sandbox
  hooks: ['config', 'sandbox'],
  // trust decides how a workspace's files layer over the person's: beside permissions and config
  trust: ['config', 'permissions', 'hooks'],
  // MCP servers as tools (the SDK client, server processes, their tool lists): a tool family beside tools, reading
  // server definitions from config and running stdio servers under the sandbox folder's parent-death watchdog
  mcp: ['tools', 'config', 'sandbox'],
  // services over the store
  events: ['store'],
  approvals: ['store'],
  // the agent machinery, each layer over the ones before it
  loop: ['models', 'store', 'tools'],
  runtime: ['loop', 'tools', 'mcp', 'permissions', 'trust', 'agents', 'skills', 'hooks', 'sandbox', 'containers', 'approvals', 'models', 'config', 'store'],
  subagents: ['runtime', 'loop', 'tools', 'permissions', 'store', 'hooks', 'containers'],
  // undo, redo and the review of changes: checkpoints around turns, attributed through the runtime's write port
  undo: ['checkpoints', 'runtime', 'permissions', 'store', 'tools'],
  sessions: ['subagents', 'runtime', 'loop', 'permissions', 'approvals', 'events', 'models', 'store', 'undo', 'commands', 'hooks'],
  host: ['sessions', 'undo', 'checkpoints', 'subagents', 'runtime', 'loop', 'approvals', 'events', 'agents', 'skills', 'commands', 'hooks', 'config', 'models', 'permissions', 'trust', 'sandbox', 'containers', 'store', 'tools', 'mcp'],
  // the contract's transport-independent core: never the host itself
  bridge: [],
  // transports and entry points
  daemon: ['bridge', 'renderer-files'],
  'local-socket': ['bridge'],
  electron: ['bridge', 'local-socket', 'renderer-files', 'host', 'config', 'models', 'store'],
  // the editors' transport (Agent Client Protocol on stdio): a bridge client (src-shared) to the host, and the tools'
  // EditorFiles port type
  acp: ['tools'],
  cli: ['bridge', 'local-socket', 'daemon', 'host', 'config', 'acp'],
}
const FOLDERS = Object.keys(LAYERS)
/** Folders every layer may import (they import no other folder themselves). */
const EVERYWHERE = ['files']

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** Test support is for tests: product code never imports a `testing/` folder. */
const TESTING = { regex: '(^|/)testing(/|$)', message: 'Test helpers (testing/ folders) are for tests only; product code must not import them.' }
const RENDERER = { regex: '(^|/)src-renderer(/|$)', message: 'src-main never imports the renderer; share code through src-shared.' }

/** The no-restricted-imports options for the product files of src-main/<folder>. */
function layerRule(folder) {
  const allowed = new Set([folder, ...LAYERS[folder], ...EVERYWHERE])
  const forbidden = FOLDERS.filter((f) => !allowed.has(f))
  const patterns = [TESTING, RENDERER]
  if (forbidden.length) {
    patterns.push({
      // `../store`, `../../store/x` …: a folder beside this one (src-main has no nested product folders).
      regex: `^(\\.\\./)+(${forbidden.map(escape).join('|')})(/|$)`,
      message: `src-main/${folder} may import only ${[...allowed].filter((f) => f !== folder).join(', ') || 'src-shared'} (and src-shared): see the layer map in eslint.config.js and docs/architecture.md.`,
    })
  }
  // The preload's channel names and types are shared with the Electron shell only.
  if (folder !== 'electron') patterns.push({ regex: '(^|/)src-preload(/|$)', message: 'Only the Electron shell talks to the preload.' })
  const paths = folder === 'electron' ? [] : [{ name: 'electron', message: 'Only src-main/electron may import Electron.' }]
  return ['error', { paths, patterns }]
}

/** Tests and test support may import anything; the layer rules are for product code. */
const NOT_PRODUCT = ['**/*.test.ts', '**/testing/**']

/**
 * The renderer's layers: components (and markdown/, lib/, app.tsx) render and dispatch; `state/` (its `*-actions.ts`
 * and stores) talks to the host through the bridge handle `state/bridge.ts`; `bridge/` holds the transports and
 * `main.tsx` wires them up. So the UI never imports the bridge, state never imports the UI, and the transports know
 * neither. `src-main/layers.test.ts` shows each violation failing.
 */
const RENDERER_LAYERS = {
  ui: {
    // `../../bridge`, `../../state/bridge`, the shared client or protocol; not the contract's `src-shared/bridge` types
    regex: '(^|(?<!src-shared)/)(state/)?bridge(/|$)|(^|/)src-shared/bridge-(client|protocol|memory)$',
    message: 'Components reach the host only through src-renderer/state/ (its *-actions.ts and stores), never the bridge: see the renderer layering in docs/architecture.md.',
  },
  state: { regex: '(^|/)(components|markdown)(/|$)', message: 'src-renderer/state never imports the UI (components, markdown): components call state, not the other way.' },
  bridge: { regex: '(^|/)(state|components|markdown)(/|$)', message: 'src-renderer/bridge holds the transports only: state/ uses them, never the reverse.' },
}

/** The no-restricted-imports options for a renderer file: never main or Node, plus its layer's pattern. */
function rendererRule(...patterns) {
  return ['error', { paths: [...nodeImports, 'electron', 'better-sqlite3'], patterns: [{ group: ['**/src-main/**'] }, ...patterns] }]
}
/** Only the transports talk to the preload's object. */
const NO_PRELOAD_GLOBAL = ['error', { object: 'window', property: 'agentry', message: 'Only src-renderer/bridge/ talks to the preload (window.agentry); the rest of the renderer goes through state/.' }]

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'e2e/artifacts/**', 'docs/**', 'dist/**', '**/*.snap', 'test-corpora/**'] },
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
      'no-restricted-imports': [
        'error',
        { paths: [...nodeImports, 'electron', 'react'], patterns: [{ regex: '^\\.\\./', message: 'src-shared is the contract: it imports nothing but itself and zod.' }] },
      ],
    },
  },
  // A folder of src-main that is not in the layer map is an error until it is placed.
  {
    files: ['src-main/**/*.ts'],
    ignores: [...NOT_PRODUCT, ...FOLDERS.map((f) => `src-main/${f}/**`)],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '.', message: 'This folder is not in the layer map: add it to LAYERS in eslint.config.js (see docs/architecture.md).' }] }] },
  },
  ...FOLDERS.map((folder) => ({ files: [`src-main/${folder}/**/*.ts`], ignores: NOT_PRODUCT, rules: { 'no-restricted-imports': layerRule(folder) } })),
  {
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': rendererRule(),
      // The page's `window.agentry` type is the preload's own; nothing else of the preload reaches the page.
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: ['**/src-preload/**'], allowTypeImports: true }] }],
    },
  },
  {
    files: ['src-renderer/**/*.ts', 'src-renderer/**/*.tsx'],
    ignores: [...NOT_PRODUCT, 'src-renderer/state/**', 'src-renderer/bridge/**', 'src-renderer/main.tsx'],
    rules: { 'no-restricted-imports': rendererRule(RENDERER_LAYERS.ui), 'no-restricted-properties': NO_PRELOAD_GLOBAL },
  },
  {
    files: ['src-renderer/state/**/*.ts'],
    ignores: NOT_PRODUCT,
    rules: { 'no-restricted-imports': rendererRule(RENDERER_LAYERS.state), 'no-restricted-properties': NO_PRELOAD_GLOBAL },
  },
  { files: ['src-renderer/bridge/**/*.ts'], ignores: NOT_PRODUCT, rules: { 'no-restricted-imports': rendererRule(RENDERER_LAYERS.bridge) } },
  {
    files: ['src-preload/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)(src-main|src-renderer)(/|$)', message: 'The preload imports only the contract (src-shared) and electron.' }] }],
    },
  },
)
