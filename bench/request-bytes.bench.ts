/**
 * Request bytes per workflow (issue 22): what the model is sent, byte for byte, for the same "fan-out 4" workflow —
 * the root starts four explore children in one step, each reads one file and answers, the root answers — through
 * the built CLI against a loopback server (bench/peers/, which also drives opencode the same way).
 * Targets: Agentry ≤ 0.65 × opencode's total; each sibling's first request ≥ 90% a prefix already sent, in the order
 * a prompt cache reads a request (tools, then messages).
 *
 * opencode runs when its binary is installed (bench/peers/README.md: `npm install opencode-ai@1.18.33` under
 * /tmp/peers, or OPENCODE_BIN); otherwise its last measured total is used and said so.
 * Run: `npx tsx bench/request-bytes.bench.ts` (prints JSON). The bench runner imports run().
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildCli } from '../src-main/cli/testing/cli-process'
import { round, runIfMain } from './stats'

const here = path.dirname(fileURLToPath(import.meta.url))
const SCRIPT = path.join(here, 'peers', 'request-bytes.mjs')
const OPENCODE_BIN = process.env.OPENCODE_BIN ?? '/tmp/peers/node_modules/opencode-linux-x64/bin/opencode'
/** opencode 1.18.33's total for this workflow, measured 2026-11-27 (bench/peers/README.md): used when it is not installed. */
const OPENCODE_MEASURED = { bytes: 164_315, version: 'opencode 1.18.33', measured: '2026-11-27' }
const TARGETS = { ratio: 0.65, siblingPrefix: 0.9 }

interface HostRun {
  hostVersion: string
  completed: boolean
  totals: { bytes: number; workflowBytes: number; helperBytes: number; byLabel: Record<string, { requests: number; bytes: number }> }
  requests: { label: string; bytes: number; systemBytes: number; toolsBytes: number; cacheOrderPrefixRatio: number }[]
}

function runHost(host: 'agentry' | 'opencode'): HostRun {
  const out = spawnSync(process.execPath, [SCRIPT, host, ...(host === 'opencode' ? ['--opencode-bin', OPENCODE_BIN] : [])], { encoding: 'utf8', timeout: 300_000 })
  if (out.status !== 0) throw new Error(`${host}: the workflow did not complete (exit ${out.status}): ${(out.stderr || out.stdout).slice(-500)}`)
  return JSON.parse(out.stdout) as HostRun
}

/** Siblings after the first: how much of each first request was already sent (tools first, as a cache reads it). */
function siblingPrefix(run: HostRun): number {
  const firsts = run.requests.filter((r) => /^child-[a-z]-1$/.test(r.label)).slice(1)
  return round(Math.min(...firsts.map((r) => r.cacheOrderPrefixRatio)), 3)
}

function summary(run: HostRun) {
  const root = run.requests.find((r) => r.label === 'root-1')!
  const child = run.requests.find((r) => r.label === 'child-a-1')!
  return {
    version: run.hostVersion,
    totalBytes: run.totals.bytes,
    workflowBytes: run.totals.workflowBytes,
    titleBytes: run.totals.helperBytes,
    byLabel: run.totals.byLabel,
    root: { systemBytes: root.systemBytes, toolsBytes: root.toolsBytes },
    child: { systemBytes: child.systemBytes, toolsBytes: child.toolsBytes },
    siblingPrefixMin: siblingPrefix(run),
  }
}

export async function run(): Promise<Record<string, unknown>> {
  buildCli()
  const agentry = summary(runHost('agentry'))
  const installed = fs.existsSync(OPENCODE_BIN)
  const opencode = installed ? summary(runHost('opencode')) : undefined
  const peerBytes = opencode?.totalBytes ?? OPENCODE_MEASURED.bytes
  const ratio = round(agentry.totalBytes / peerBytes, 3)
  return {
    agentry,
    opencode: opencode ?? { totalBytes: OPENCODE_MEASURED.bytes, version: OPENCODE_MEASURED.version, note: `not installed here (${OPENCODE_BIN}): measured ${OPENCODE_MEASURED.measured}` },
    ratio,
    targets: TARGETS,
    met: { ratio: ratio <= TARGETS.ratio, siblingPrefix: agentry.siblingPrefixMin >= TARGETS.siblingPrefix },
  }
}

runIfMain(import.meta.url, run)
