import fs from 'node:fs'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createHarness, waitFor, type Harness } from '../testing/harness'
import { processesWith, waitUntil } from '../tools/testing/processes'

/** Issue 10: host.stop() ends the bash commands its runs started, children included (sandboxed or not). */
let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

it.each([
  ['sandboxed', true],
  ['unconfined', false],
])('host.stop() mid-command ends the command and what it started (%s)', async (_mode, enabled) => {
  const sleep = `sleep 30.${process.pid % 1000}${enabled ? 1 : 2}`
  h = await createHarness({
    config: { sandbox: { enabled } },
    permissions: '{ "*": "allow" }',
    script: {
      agents: {
        build: [{ step: 1, tools: [{ name: 'bash', input: { command: `${sleep} & touch started; ${sleep}; touch marker` } }] }, { step: 2, text: 'never' }],
        title: [{ text: 'Stop test', repeat: true }],
      },
    },
  })
  await h.run('go', { wait: false })
  await waitFor(() => fs.existsSync(path.join(h!.workdir, 'started')), 10_000)
  expect(await waitUntil(() => processesWith(sleep).length === 2, 5_000)).toBe(true)
  await h.host.stop()
  expect(processesWith(sleep)).toEqual([])
  expect(fs.existsSync(path.join(h.workdir, 'marker'))).toBe(false)
})
