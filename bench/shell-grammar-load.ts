/** One cold grammar load in a fresh process (spawned by shell.bench.ts); prints `{ wallMs, cpuMs }`. */
import { performance } from 'node:perf_hooks'
import { loadShellGrammar, shellParser } from '../src-main/permissions/shell'

const cpu = process.cpuUsage()
const started = performance.now()
await loadShellGrammar()
const wallMs = performance.now() - started
const used = process.cpuUsage(cpu)
if (!shellParser().ok) throw new Error('the grammar did not load')
process.stdout.write(`${JSON.stringify({ wallMs, cpuMs: (used.user + used.system) / 1000 })}\n`)
