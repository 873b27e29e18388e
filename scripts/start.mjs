#!/usr/bin/env node
// `npm start`: build, prepare better-sqlite3 for Electron's ABI, launch the desktop app.
//
// better-sqlite3 is a native module. node_modules keeps the build for Node's ABI (what `npm test` and the CLI load);
// the Electron build goes to a separate place, out/native/electron/better_sqlite3.node, and the app is told where
// through the AGENTRY_SQLITE_BINDING environment variable. Nothing here runs at install time.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(path.join(root, 'package.json'))
const nativeDir = path.join(root, 'out', 'native', 'electron')
const bindingFile = path.join(nativeDir, 'better_sqlite3.node')
const stampFile = path.join(nativeDir, 'stamp.json')
const args = process.argv.slice(2)

function fail(message) {
  process.stderr.write(`${message}\n`)
  process.exit(1)
}

/** The Electron executable, or undefined. Never triggers electron's own noisy download on require(). */
function electronBinary() {
  const dir = path.dirname(require.resolve('electron/package.json'))
  const pathTxt = path.join(dir, 'path.txt')
  if (!fs.existsSync(pathTxt)) return undefined
  const rel = fs.readFileSync(pathTxt, 'utf8').trim()
  const exe = process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH, rel || 'electron')
    : path.join(dir, 'dist', rel)
  return fs.existsSync(exe) ? exe : undefined
}

function ensureElectron() {
  let exe = electronBinary()
  if (exe) return exe
  // electron >= 45 downloads its binary on first use. Try once, quietly; without internet this fails fast.
  process.stdout.write('Electron binary not found; trying to download it…\n')
  const dir = path.dirname(require.resolve('electron/package.json'))
  const r = spawnSync(process.execPath, [path.join(dir, 'install.js')], { stdio: 'pipe', timeout: 180_000, encoding: 'utf8' })
  exe = electronBinary()
  if (exe) return exe
  if (process.env.AGENTRY_DEBUG) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}\n`)
  fail(
    'The Electron binary is not installed and could not be downloaded (no internet access?). ' +
      'Use the browser mode instead: npm run serve',
  )
}

function build() {
  if (args.includes('--no-build')) return
  const vite = path.join(path.dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js')
  const cmd = fs.existsSync(vite) ? [process.execPath, [vite, 'build']] : ['npx', ['electron-vite', 'build']]
  const r = spawnSync(cmd[0], cmd[1], { cwd: root, stdio: 'inherit' })
  if (r.status !== 0) fail('Building the app failed (see above). Fix the error and run npm start again.')
}

/** node-gyp as bundled with npm: always present where npm is, and needs no network to start. */
function nodeGyp() {
  const candidates = [
    process.env.npm_config_node_gyp,
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
  ].filter(Boolean)
  return candidates.find((p) => fs.existsSync(p))
}

function ensureSqliteForElectron() {
  const electronPkg = require('electron/package.json')
  const sqliteDir = path.dirname(require.resolve('better-sqlite3/package.json'))
  const sqlitePkg = JSON.parse(fs.readFileSync(path.join(sqliteDir, 'package.json'), 'utf8'))
  const abiFile = path.join(path.dirname(require.resolve('electron/package.json')), 'abi_version')
  const abi = fs.existsSync(abiFile) ? fs.readFileSync(abiFile, 'utf8').trim() : 'unknown'
  const want = { electron: electronPkg.version, abi, betterSqlite3: sqlitePkg.version, arch: process.arch }
  if (fs.existsSync(bindingFile) && fs.existsSync(stampFile)) {
    const have = JSON.parse(fs.readFileSync(stampFile, 'utf8'))
    if (JSON.stringify(have) === JSON.stringify(want)) return bindingFile
    process.stdout.write(`better-sqlite3 for Electron is stale (built for ${JSON.stringify(have)}); rebuilding…\n`)
  }

  const gyp = nodeGyp()
  if (!gyp) fail('node-gyp was not found (it ships with npm). Reinstall npm, or run npm start through npm so npm_config_node_gyp is set.')
  process.stdout.write(`Building better-sqlite3 ${sqlitePkg.version} for Electron ${electronPkg.version} (ABI ${abi}) — once per version…\n`)
  // A copy of the module, so the Node build in node_modules (used by npm test) is never touched.
  const work = path.join(nativeDir, 'better-sqlite3-src')
  fs.rmSync(work, { recursive: true, force: true })
  fs.mkdirSync(work, { recursive: true })
  for (const entry of ['binding.gyp', 'package.json', 'src', 'deps']) {
    fs.cpSync(path.join(sqliteDir, entry), path.join(work, entry), { recursive: true })
  }
  const env = { ...process.env }
  // An npmrc `nodedir` (Node's own headers) would silently build for Node's ABI instead of Electron's.
  for (const k of Object.keys(env)) if (/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(k)) delete env[k]
  const r = spawnSync(
    process.execPath,
    [gyp, 'rebuild', '--release', `--target=${electronPkg.version}`, `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers'],
    { cwd: work, env, stdio: 'inherit' },
  )
  const built = path.join(work, 'build', 'Release', 'better_sqlite3.node')
  if (r.status !== 0 || !fs.existsSync(built)) {
    fail(
      `Could not build better-sqlite3 for Electron ${electronPkg.version} (ABI ${abi}); node-gyp needs Electron's headers ` +
        'from https://electronjs.org/headers (internet) and a C++ toolchain (python3, make, g++). ' +
        'Until then, use the browser mode: npm run serve',
    )
  }
  fs.copyFileSync(built, bindingFile)
  fs.writeFileSync(stampFile, JSON.stringify(want) + '\n')
  fs.rmSync(work, { recursive: true, force: true })
  return bindingFile
}

const exe = ensureElectron()
build()
const binding = ensureSqliteForElectron()
const electronArgs = ['.']
// Chromium refuses to start as root with its OS sandbox on Linux (containers, CI). Only then is it turned off;
// contextIsolation and the locked-down preload still apply.
if (process.platform === 'linux' && process.getuid?.() === 0) electronArgs.push('--no-sandbox')
const child = spawn(exe, [...electronArgs, ...args.filter((a) => a !== '--no-build')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, AGENTRY_SQLITE_BINDING: binding },
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
