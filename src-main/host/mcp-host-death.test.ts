import crypto from 'node:crypto'
import fs from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { EVERYTHING } from '../mcp/testing/servers'
import { bundleHostProcess, createFixture, startChildHost } from './testing/child-host'

let bundle: Awaited<ReturnType<typeof bundleHostProcess>>
beforeAll(async () => {
  bundle = await bundleHostProcess()
}, 60_000)
afterAll(() => bundle.dispose())

/** Processes whose environment carries `marker` (set in the server's definition, so only that server has it). */
function processesWith(marker: string): number[] {
  return fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).flatMap((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').includes(marker) ? [Number(pid)] : []
    } catch (err) {
      // Gone already, or another user's process.
      if (['ENOENT', 'ESRCH', 'EACCES'].includes((err as NodeJS.ErrnoException).code ?? '')) return []
      throw err
    }
  })
}

function readCmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw err
  }
}

it.runIf(process.platform === 'linux')('kill -9 of the host leaves no MCP server process behind (checked in /proc)', async () => {
  const marker = `AGENTRY_MCP_MARKER=${crypto.randomUUID()}`
  const [key, value] = marker.split('=')
  const f = createFixture({
    permissions: JSON.stringify({ '*': 'allow' }),
    // The server starts a helper that ignores stdin (as `npx` wrappers and servers with workers do): only a kill of
    // the whole process group ends it when the host dies.
    config: { mcp: { everything: { command: 'sh', args: ['-c', 'sleep 600 & exec "$0" "$@"', EVERYTHING.command, ...EVERYTHING.args], env: { [key]: value } } } },
    script: { agents: { build: [{ step: 1, tools: [{ name: 'mcp__everything__trigger-long-running-operation', input: { duration: 60, steps: 60 } }] }, { step: 2, text: 'done' }] } },
  })
  try {
    const child = await startChildHost(bundle.file, f, { prompt: 'run the long operation' })
    const commands = () => processesWith(marker).map((pid) => readCmdline(pid))
    await child.until(() => commands().some((c) => c.includes('server-everything')) && commands().some((c) => c.startsWith('sleep')), 'the MCP server and its helper', 20_000)
    await child.kill()
    const end = Date.now() + 15_000
    while (processesWith(marker).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 50))
    expect(processesWith(marker)).toEqual([])
  } finally {
    f.remove()
  }
}, 60_000)
