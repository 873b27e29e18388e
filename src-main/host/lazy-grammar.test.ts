import { afterEach, expect, it } from 'vitest'
import { shellParser } from '../permissions/shell'
import { createHarness, toolParts, type Harness } from '../testing/harness'

/**
 * The bash grammar costs a one-shot `agentry run` more than everything else it loads (bench/cli-start): the host
 * must not load it at start, and the first bash call must — before its line is judged, so the judgement is real.
 * (Vitest isolates modules per file: this file's process has not loaded the grammar before.)
 */
/** shellParser() throws until the grammar has loaded (a programming error in product code; the probe here). */
const grammarLoaded = (): boolean => {
  try {
    return shellParser().ok
  } catch (err) {
    if (err instanceof Error && /not loaded yet/.test(err.message)) return false
    throw err
  }
}

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

it('a host starts and answers without the shell grammar; the first bash call loads it and is judged by its commands', async () => {
  h = await createHarness({
    headlessRun: { yes: false, allow: [{ tool: 'bash', pattern: 'echo *' }] },
    script: {
      agents: {
        build: [
          { text: 'plain answer' },
          { match: 'run it', tools: [{ name: 'bash', input: { command: 'echo one && echo two' } }] },
          { step: 2, text: 'ran' },
          { match: 'again', tools: [{ name: 'bash', input: { command: 'echo three; rm -rf x' } }] },
          { step: 2, text: 'stopped' },
        ],
      },
    },
  })
  expect(grammarLoaded()).toBe(false)
  const plain = await h.run('hi')
  expect(plain.final?.finishReason).toBe('stop')
  expect(grammarLoaded()).toBe(false)

  // Both commands of the line are allowed by `echo *`: parsed, so the grant covers each of them.
  const ran = await h.run('run it', { sessionId: plain.sessionId })
  expect(grammarLoaded()).toBe(true)
  const [call] = toolParts(ran.messages).slice(-1)
  expect(call).toMatchObject({ type: 'tool-bash', toolState: 'output-available' })
  expect(JSON.stringify(call)).toContain('one\\ntwo')

  // `rm` hidden after `;` is its own command: not covered by the grant, so headless means deny.
  const denied = await h.run('again', { sessionId: plain.sessionId })
  const [second] = toolParts(denied.messages).slice(-1)
  expect(second).toMatchObject({ type: 'tool-bash', toolState: 'output-error', data: { metadata: { denied: true } } })
  expect(JSON.stringify(second)).toMatch(/rm -rf x/)
})
