#!/usr/bin/env node
// Runs the "fan-out 4" workflow against one host and prints one JSON object: the totals and the per-request table of
// what the host sent to the model (byte for byte, as recorded by scripted-fanout-server.mjs).
//
//   node bench/peers/request-bytes.mjs agentry  [--agentry-bin /work/main/bin/agentry.js]
//   node bench/peers/request-bytes.mjs opencode [--opencode-bin /tmp/peers/node_modules/opencode-linux-x64/bin/opencode]
//   common: [--dump DIR] (keep every request body there) [--keep] (keep the temp dirs) [--timeout SECONDS]
//           [--home DIR] (reuse this HOME for the host, e.g. so opencode does not reinstall its plugin package)
//
// Each run gets a fresh workspace (git repo, one commit, src/{a,b,c,d}/index.ts) and a fresh HOME/data dir, so no
// user configuration of either host leaks in. Nothing but the loopback server is offered as a model.
import { spawn, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startFanoutServer, PARTS, PROMPT } from './scripted-fanout-server.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const host = args[0]
const opt = (name, fallback) => {
  const i = args.indexOf(name)
  return i > 0 && args[i + 1] !== undefined ? args[i + 1] : fallback
}
const flag = (name) => args.includes(name)
if (host !== 'agentry' && host !== 'opencode') {
  process.stderr.write('usage: node request-bytes.mjs agentry|opencode [--agentry-bin P] [--opencode-bin P] [--dump DIR] [--keep] [--home DIR] [--timeout S]\n')
  process.exit(2)
}
const timeoutMs = Number(opt('--timeout', '240')) * 1000
const agentryBin = path.resolve(opt('--agentry-bin', path.join(here, '..', '..', 'bin', 'agentry.js')))
const opencodeBin = path.resolve(opt('--opencode-bin', process.env.OPENCODE_BIN ?? '/tmp/peers/node_modules/opencode-linux-x64/bin/opencode'))

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'peers-bytes-')))
const ws = path.join(root, 'ws')
const home = opt('--home') ? path.resolve(opt('--home')) : path.join(root, 'home')
fs.mkdirSync(ws, { recursive: true })
fs.mkdirSync(home, { recursive: true })

// The workspace: four small parts, a git repo with one commit.
for (const p of PARTS) {
  fs.mkdirSync(path.join(ws, 'src', p), { recursive: true })
  fs.writeFileSync(path.join(ws, 'src', p, 'index.ts'), `export function part${p.toUpperCase()}(): string {\n  return '${p}'\n}\n`)
}
const git = (...a) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'init.defaultBranch=main', ...a], { cwd: ws, stdio: 'ignore' })
git('init', '-q')
git('add', '-A')
git('commit', '-q', '-m', 'four parts')

const serverLog = []
const server = await startFanoutServer({ workspace: ws, dumpDir: opt('--dump'), log: (l) => serverLog.push(l) })

// Both hosts get a private HOME (and XDG dirs) so nothing of the machine's user config is read.
const baseEnv = {
  PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
  HOME: home,
  XDG_CONFIG_HOME: path.join(home, '.config'),
  XDG_DATA_HOME: path.join(home, '.local', 'share'),
  XDG_CACHE_HOME: path.join(home, '.cache'),
  XDG_STATE_HOME: path.join(home, '.local', 'state'),
  TMPDIR: os.tmpdir(),
  LANG: 'C.UTF-8',
  TERM: 'dumb',
  NO_COLOR: '1',
}

let command
let commandArgs
let env
let hostVersion
if (host === 'agentry') {
  const data = path.join(home, 'agentry')
  fs.mkdirSync(data, { recursive: true })
  fs.writeFileSync(
    path.join(data, 'config.yaml'),
    `model: mock/m\nproviders:\n  mock: { type: openai-compatible, baseURL: "${server.url}", apiKey: x }\n`,
  )
  command = process.execPath
  commandArgs = [agentryBin, 'run', '--workdir', ws, '--yes', PROMPT]
  env = { ...baseEnv, AGENTRY_HOME: data }
  // which Agentry: package version, git commit (+dirty when the work tree has changes) and the CLI bundle's hash,
  // since out/cli is built from the work tree as it was at build time
  const repo = path.resolve(path.dirname(agentryBin), '..')
  const parts = ['agentry']
  try {
    parts.push(JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')).version)
  } catch {
    parts.push('(no package.json)')
  }
  try {
    const head = execFileSync('git', ['-C', repo, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }).trim()
    const dirty = execFileSync('git', ['-C', repo, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }).trim()
    parts.push(`@ ${head}${dirty ? '+dirty' : ''}`)
  } catch {
    parts.push('(no git)')
  }
  try {
    const bundle = path.join(repo, 'out', 'cli', 'agentry.mjs')
    const hash = createHash('sha256').update(fs.readFileSync(bundle)).digest('hex').slice(0, 12)
    parts.push(`bundle ${hash} built ${fs.statSync(bundle).mtime.toISOString()}`)
  } catch {
    parts.push('(no CLI bundle: run npm run build:cli)')
  }
  hostVersion = parts.join(' ')
} else {
  // opencode's global config (not in the workspace, so both hosts see the same tree): a custom provider through
  // @ai-sdk/openai-compatible at the loopback server, as the default and small model. No `permission` block: a
  // user-level `"*": "allow"` is merged last into every agent and would hand the explore subagent edit/write/…
  // tools it does not have by default; `run --auto` (approve whatever would ask) is the analogue of Agentry's --yes.
  const configDir = path.join(baseEnv.XDG_CONFIG_HOME, 'opencode')
  fs.mkdirSync(configDir, { recursive: true })
  fs.writeFileSync(
    path.join(configDir, 'opencode.json'),
    JSON.stringify(
      {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          mock: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Mock',
            options: { baseURL: server.url, apiKey: 'x' },
            models: { m: { name: 'm', tool_call: true } },
          },
        },
        model: 'mock/m',
        small_model: 'mock/m',
        autoupdate: false,
        share: 'disabled',
      },
      null,
      2,
    ),
  )
  command = opencodeBin
  commandArgs = ['run', '--auto', PROMPT]
  env = {
    ...baseEnv,
    OPENCODE_DISABLE_MODELS_FETCH: '1', // no models.dev catalogue download (the provider is declared in full above)
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
  }
  hostVersion = `opencode ${execFileSync(opencodeBin, ['--version'], { encoding: 'utf8', env }).trim()}`
}

const started = Date.now()
const child = spawn(command, commandArgs, { cwd: ws, env, stdio: ['ignore', 'pipe', 'pipe'] })
let stdout = ''
let stderr = ''
child.stdout.on('data', (d) => (stdout += d))
child.stderr.on('data', (d) => (stderr += d))
const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs)
const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])))
clearTimeout(timer)
const seconds = Number(((Date.now() - started) / 1000).toFixed(1))
await server.close()

const { totals, requests } = server.analyze()
const labels = requests.map((r) => r.label)
const expected = ['root-1', ...PARTS.map((p) => `child-${p}-1`), ...PARTS.map((p) => `child-${p}-2`), 'root-2']
const missing = expected.filter((l) => !labels.includes(l))
const result = {
  host,
  hostVersion,
  node: process.version,
  exit: { code, signal, seconds },
  completed: missing.length === 0 && code === 0,
  missing,
  answer: stdout.replace(/\x1b\[[0-9;]*m/g, '').trim().split('\n').slice(-3).join('\n'),
  totals,
  requests,
  unrouted: serverLog.filter((l) => l.startsWith('unrouted') || l.includes('error')),
  stderrTail: code === 0 ? undefined : stderr.slice(-2000),
  workspace: flag('--keep') ? ws : undefined,
}
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
// --home lives outside root, so it survives this
if (!flag('--keep')) fs.rmSync(root, { recursive: true, force: true })
process.exitCode = result.completed ? 0 : 1
