import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/**
 * The layering of docs/architecture.md is enforced by `npm run lint` (eslint.config.js). This runs the project's own
 * lint configuration on fixture files — one import each, at a path inside the repo — and shows that every kind of
 * violation fails and the imports the layers allow pass. Nothing is written: ESLint lints the text as if it were there.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const eslint = new ESLint({ cwd: repo })

async function importErrors(file: string, line: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${line}\nexport const used = [x]\n`, { filePath: path.join(repo, file) })
  return result.messages.filter((m) => /no-restricted-(imports|properties)$/.test(m.ruleId ?? '')).map((m) => m.message)
}

describe('npm run lint enforces the layers', () => {
  it.each([
    ['upward: the store reaching into the runtime', 'src-main/store/fixture.ts', "import { Runtime as x } from '../runtime'", /store may import only/],
    ['sideways between leaves: a tool opening the store', 'src-main/tools/fixture.ts', "import { openStore as x } from '../store'", /tools may import only/],
    ['the bridge importing the host (the contract is in src-shared)', 'src-main/bridge/fixture.ts', "import type { Host as x } from '../host'", /bridge may import only/],
    ['the host importing a transport', 'src-main/host/fixture.ts', "import { startDaemon as x } from '../daemon'", /host may import only/],
    ['a transport reaching past the bridge into the store', 'src-main/daemon/fixture.ts', "import { openStore as x } from '../store'", /daemon may import only/],
    ['the loop calling up into subagents', 'src-main/loop/nested/fixture.ts', "import { Subagents as x } from '../../subagents'", /loop may import only/],
    ['product code importing test helpers', 'src-main/runtime/fixture.ts', "import { startScriptedChatServer as x } from '../models/testing'", /testing\/ folders/],
    ['product code importing its own folder’s test helpers', 'src-main/tools/fixture.ts', "import { makeContext as x } from './testing/test-context'", /testing\/ folders/],
    ['a new folder that is not in the layer map', 'src-main/plugins/fixture.ts', "import { defineTool as x } from '../tools'", /not in the layer map/],
    ['the MCP leaf reaching up to the runtime', 'src-main/mcp/fixture.ts', "import { Runtime as x } from '../runtime'", /src-main\/mcp may import only tools, config, sandbox/],
    ['Electron outside the shell', 'src-main/store/fixture.ts', "import { app as x } from 'electron'", /Only src-main\/electron/],
    ['Node in the contract', 'src-shared/fixture.ts', "import x from 'node:fs'", /node:fs/],
    ['the contract importing main', 'src-shared/fixture.ts', "import { createHost as x } from '../src-main/host'", /imports nothing but itself/],
    ['the checkpoints leaf reaching up to the host', 'src-main/checkpoints/fixture.ts', "import { createHost as x } from '../host'", /checkpoints may import only files \(and src-shared\)/],
    ['the files leaf importing a layer', 'src-main/files/fixture.ts', "import { loadConfig as x } from '../config'", /files may import only src-shared/],
    ['the renderer importing main', 'src-renderer/fixture.ts', "import { createHost as x } from '../src-main/host'", /src-main/],
    ['the renderer importing preload code (not just its type)', 'src-renderer/fixture.ts', "import { createPreloadApi as x } from '../src-preload/api'", /src-preload/],
    ['a component calling the bridge handle (state/bridge.ts)', 'src-renderer/components/settings/fixture.tsx', "import { call as x } from '../../state/bridge'", /only through src-renderer\/state/],
    ['a component importing the renderer’s bridge (the transports)', 'src-renderer/components/fixture.tsx', "import { connectToHost as x } from '../bridge'", /only through src-renderer\/state/],
    ['a component building its own bridge client', 'src-renderer/components/sidebar/fixture.tsx', "import { createBridgeClient as x } from '../../../src-shared/bridge-client'", /only through src-renderer\/state/],
    ['the app shell importing the bridge handle', 'src-renderer/app.tsx', "import { getBridge as x } from './state/bridge'", /only through src-renderer\/state/],
    ['a component talking to the preload object', 'src-renderer/components/shell/fixture.tsx', 'const x = window.agentry', /Only src-renderer\/bridge\/ talks to the preload/],
    ['renderer state importing a component', 'src-renderer/state/fixture.ts', "import { Composer as x } from '../components/composer/composer'", /state never imports the UI/],
    ['a renderer transport reaching into state', 'src-renderer/bridge/fixture.ts', "import { getBridge as x } from '../state/bridge'", /bridge holds the transports only/],
  ])('fails on %s', async (_what, file, line, reason) => {
    const errors = await importErrors(file, line)
    expect(errors.length, `${file}: ${line}`).toBeGreaterThan(0)
    expect(errors.join('\n')).toMatch(reason)
  })

  it.each([
    ['the host assembling the runtime', 'src-main/host/fixture.ts', "import { Runtime as x } from '../runtime'"],
    ['any layer reading a file through files', 'src-main/store/fixture.ts', "import { readText as x } from '../files'"],
    ['the checkpoints leaf naming errors through files', 'src-main/checkpoints/fixture.ts', "import { isMissing as x } from '../files'"],
    ['the MCP leaf defining tools', 'src-main/mcp/fixture.ts', "import { defineTool as x } from '../tools'"],
    ['the CLI starting a host of its own', 'src-main/cli/fixture.ts', "import { createHost as x } from '../host'"],
    ['a transport using the bridge', 'src-main/local-socket/fixture.ts', "import { serveConnection as x } from '../bridge'"],
    ['any layer using the contract', 'src-main/tools/fixture.ts', "import { AgentInfo as x } from '../../src-shared'"],
    ['a test using test helpers of another folder', 'src-main/store/fixture.test.ts', "import { createHarness as x } from '../testing/harness'"],
    ['the Electron shell using Electron', 'src-main/electron/fixture.ts', "import { app as x } from 'electron'"],
    ['the renderer typing window.agentry with the preload’s type', 'src-renderer/fixture.ts', "import type { AgentryApi as x } from '../src-preload/api'"],
    ['a component dispatching a state action', 'src-renderer/components/settings/fixture.tsx', "import { revokeRule as x } from '../../state/settings-actions'"],
    ['a component using the contract’s bridge-call types', 'src-renderer/components/settings/fixture.tsx', "import type { CallOutput as x } from '../../../src-shared/bridge'"],
    ['renderer state using the bridge handle', 'src-renderer/state/fixture.ts', "import { call as x } from './bridge'"],
    ['the renderer’s entry wiring the bridge into state', 'src-renderer/main.tsx', "import { connectToHost as x } from './bridge'"],
  ])('allows %s', async (_what, file, line) => {
    expect(await importErrors(file, line)).toEqual([])
  })
})
