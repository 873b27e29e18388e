import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, waitFor, type Harness } from '../testing/harness'
import { fallbackTitle } from './title'

/** Issue 28: a run that failed left an "Untitled" row; the session is titled by its prompt when the model cannot. */
let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

describe('a title when the model gives none', () => {
  it('the prompt’s first words, without Markdown, cut at a word', () => {
    expect(fallbackTitle('## Fix the login bug\nmore')).toBe('Fix the login bug')
    expect(fallbackTitle('\n\n`npm test` fails on CI')).toBe('npm test fails on CI')
    expect(fallbackTitle('Please review the code and tell me what would break if we moved the scheduler to a worker thread')).toBe('Please review the code and tell me what would break if we…')
  })

  it('a failed run (the model refuses every request, the title helper too) still gets a title', async () => {
    h = await createHarness({ script: { agents: { '*': [{ error: { status: 400, message: 'bad request' }, repeat: true }] } } })
    const r = await h.run('Why does the deploy script hang?\nHere is the log…')
    expect(r.final?.finishReason).toBe('error')
    await waitFor(() => h!.host.store.sessions.getSession(r.sessionId)?.title === 'Why does the deploy script hang?')
  })
})
