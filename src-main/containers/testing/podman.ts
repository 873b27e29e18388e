/**
 * A real container engine for tests (issue 29): Podman's Docker-compatible service on a socket of its own, with the
 * settings that make rootful Podman work on this machine and CI's (no ulimits, runc, cgroupfs, vfs storage), and a tiny
 * test image with bash built once from the host's own binaries (`podman import`; no registry is needed).
 *
 * `podmanEngine()` starts the service once and reuses it across test processes (a lock, then a ping); the service ends
 * by itself after IDLE_SECONDS without a connection, so nothing outlives a test run for long. Image and storage live
 * in ~/.cache/agentry-ci/podman (outside the clone), so the image is built once per machine, not per run.
 *
 * `podmanCli()` runs the podman CLI on the same storage (to check what a test left behind: `ps -a --filter label=…`).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import http from 'node:http'

export interface TestEngine {
  /** unix:///…/podman.sock */
  url: string
  /** an image with bash, sh and a few coreutils (sleep, cat, dd, timeout, …) */
  image: string
  /** the same without bash: commands run in sh */
  shImage: string
}

/** The test image's name; its tag changes when the tree below changes. */
export const TEST_IMAGE = 'localhost/agentry-test:2'
export const SH_ONLY_IMAGE = 'localhost/agentry-test-sh:1'
const IDLE_SECONDS = 300
/** what goes into the image, from the host, with the libraries `ldd` names */
const BINARIES = ['bash', 'sh', 'sleep', 'cat', 'ls', 'timeout', 'head', 'tail', 'tr', 'env', 'id', 'touch', 'mkdir', 'rm', 'setsid', 'dd', 'seq', 'wc', 'grep', 'sed', 'stat', 'yes', 'nproc']

const cacheDir = process.env.AGENTRY_PODMAN_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'agentry-ci', 'podman')
const runDir = path.join(os.tmpdir(), `agentry-podman-${process.getuid?.() ?? 0}`)
const socketPath = path.join(runDir, 'podman.sock')
const confFile = path.join(runDir, 'containers.conf')

let ready: Promise<TestEngine | { reason: string }> | undefined

/** The podman global flags every call shares (storage outside the clone, runc, cgroupfs, vfs). */
export function podmanArgs(): string[] {
  return ['--root', path.join(cacheDir, 'storage'), '--runroot', path.join(runDir, 'runroot'), '--storage-driver', 'vfs', '--cgroup-manager', 'cgroupfs', '--runtime', 'runc']
}

function podmanEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF: confFile }
}

/** Runs the podman CLI on the test storage; its stdout. */
export function podmanCli(args: string[]): string {
  return execFileSync('podman', [...podmanArgs(), ...args], { env: podmanEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

/** Names of the containers (running or not) carrying a label, e.g. `agentry.owner=<owner>`: what a test left behind. */
export function containersWithLabel(label: string): string[] {
  return podmanCli(['ps', '-a', '--filter', `label=${label}`, '--format', '{{.Names}}']).split('\n').filter(Boolean)
}

/** A ready engine, or why there is none (podman not installed, or it did not start). */
export function podmanEngine(): Promise<TestEngine | { reason: string }> {
  ready ??= prepare().catch((err: unknown) => ({ reason: err instanceof Error ? err.message : String(err) }))
  return ready
}

async function prepare(): Promise<TestEngine | { reason: string }> {
  if (spawnSync('podman', ['--version']).status !== 0) return { reason: 'podman is not installed (apt-get install podman runc)' }
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 })
  fs.mkdirSync(cacheDir, { recursive: true })
  fs.writeFileSync(confFile, '[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = "cgroupfs"\nruntime = "runc"\n')
  await withLock(path.join(runDir, 'lock'), async () => {
    if (!(await pings(socketPath))) await startService()
    buildImage(TEST_IMAGE, BINARIES)
    buildImage(SH_ONLY_IMAGE, BINARIES.filter((b) => b !== 'bash'))
  })
  return { url: `unix://${socketPath}`, image: TEST_IMAGE, shImage: SH_ONLY_IMAGE }
}

async function startService(): Promise<void> {
  fs.rmSync(socketPath, { force: true })
  const log = fs.openSync(path.join(runDir, 'service.log'), 'a')
  // Its own folder as the working directory: conmon writes an `oom` file into it when a command is killed at the memory limit.
  const child = spawn('podman', [...podmanArgs(), 'system', 'service', `--time=${IDLE_SECONDS}`, `unix://${socketPath}`], { cwd: runDir, env: podmanEnv(), detached: true, stdio: ['ignore', log, log] })
  child.unref()
  fs.closeSync(log)
  const until = Date.now() + 20_000
  while (Date.now() < until) {
    if (await pings(socketPath)) return
    if (child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 100))
  }
  const tail = fs.readFileSync(path.join(runDir, 'service.log'), 'utf8').trim().split('\n').slice(-3).join(' | ')
  throw new Error(`podman system service did not answer on ${socketPath}: ${tail}`)
}

/** Builds the test image from the host's binaries unless it exists (about a second, once per machine). */
function buildImage(image: string, binaries: string[]): void {
  if (spawnSync('podman', [...podmanArgs(), 'image', 'exists', image], { env: podmanEnv() }).status === 0) return
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-image-'))
  try {
    for (const d of ['bin', 'tmp', 'proc', 'sys', 'dev', 'etc', 'root', 'work']) fs.mkdirSync(path.join(tree, d))
    fs.chmodSync(path.join(tree, 'tmp'), 0o1777)
    fs.writeFileSync(path.join(tree, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\n')
    fs.writeFileSync(path.join(tree, 'etc', 'group'), 'root:x:0:\n')
    for (const name of binaries) {
      const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim()
      if (!found.startsWith('/')) continue
      copy(fs.realpathSync(found), path.join(tree, 'bin', name))
      const ldd = spawnSync('ldd', [found], { encoding: 'utf8' }).stdout ?? ''
      for (const lib of ldd.match(/\/\S+/g) ?? []) if (fs.existsSync(lib)) copy(fs.realpathSync(lib), path.join(tree, lib))
    }
    fs.mkdirSync(path.join(tree, 'usr'), { recursive: true })
    for (const link of ['usr/bin', 'usr/sbin', 'sbin']) fs.symlinkSync('/bin', path.join(tree, link))
    const tar = spawnSync('tar', ['-C', tree, '-c', '.'], { maxBuffer: 512 * 1024 * 1024 })
    if (tar.status !== 0) throw new Error(`tar failed: ${String(tar.stderr)}`)
    const imported = spawnSync('podman', [...podmanArgs(), 'import', '--change', 'ENV PATH=/bin:/usr/bin', '-', image], { env: podmanEnv(), input: tar.stdout, encoding: 'utf8' })
    if (imported.status !== 0) throw new Error(`podman import failed: ${imported.stderr.trim().split('\n').pop() ?? ''}`)
  } finally {
    fs.rmSync(tree, { recursive: true, force: true })
  }
}

function copy(from: string, to: string): void {
  if (fs.existsSync(to)) return
  fs.mkdirSync(path.dirname(to), { recursive: true })
  fs.copyFileSync(from, to)
  fs.chmodSync(to, fs.statSync(from).mode & 0o777)
}

function pings(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ socketPath: socket, path: '/_ping', timeout: 2_000 }, (res) => {
      res.resume()
      resolve(res.statusCode === 200)
    })
    req.on('error', () => resolve(false))
    req.on('timeout', () => {
      req.destroy()
      resolve(false)
    })
  })
}

/** One test process at a time prepares the engine; a lock older than a minute was left by a killed one. */
async function withLock<T>(file: string, f: () => Promise<T>): Promise<T> {
  const until = Date.now() + 120_000
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' })
      break
    } catch {
      const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 60_000) fs.rmSync(file, { force: true })
      else if (Date.now() > until) throw new Error(`the podman test lock ${file} is held too long`)
      else await new Promise((r) => setTimeout(r, 200))
    }
  }
  try {
    return await f()
  } finally {
    fs.rmSync(file, { force: true })
  }
}
