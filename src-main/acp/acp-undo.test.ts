import fs from 'node:fs'
import path from 'node:path'
import type { SessionNotification } from '@agentclientprotocol/sdk/unstable'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCli } from '../cli/testing/cli-process'
import { acpScene, say } from './testing/acp-client'

/** `/undo` from an editor (issue 27's built-in, over issue 24's undo): runs at once, says what it did or why not. */
beforeAll(() => buildCli(), 60_000)
const scenes: { remove(): Promise<void> }[] = []
afterAll(async () => Promise.all(scenes.map((s) => s.remove())))

const replies = (updates: SessionNotification[]) =>
  updates.filter((n) => n.update.sessionUpdate === 'agent_message_chunk').map((n) => (n.update as { content: { text?: string } }).content.text ?? '')

describe('/undo over ACP', () => {
  it('is offered; takes back the last turn and its file; then nothing is left; a file changed since is never overwritten', async () => {
    const s = acpScene(
      {
        agents: {
          build: [
            { match: 'first change', step: 1, tools: [{ name: 'write_file', input: { path: 'notes.txt', content: 'changed by the agent\n' } }] },
            { match: 'first change', step: 2, text: 'Wrote it.' },
            { match: 'second change', step: 1, tools: [{ name: 'write_file', input: { path: 'notes.txt', content: 'agent again\n' } }] },
            { match: 'second change', step: 2, text: 'Wrote it again.' },
          ],
          '*': [{ text: 'Title', repeat: true }],
        },
      },
      { 'notes.txt': 'as the person left it\n' },
    )
    scenes.push(s)
    const notes = path.join(s.work, 'notes.txt')
    const { p, sessionId } = await s.open()
    p.onPermission = async (r) => ({ outcome: { outcome: 'selected', optionId: r.options.find((o) => o.kind === 'allow_once')!.optionId } })
    const update = await p.waitForUpdate((n) => n.update.sessionUpdate === 'available_commands_update')
    const offered = update.update.sessionUpdate === 'available_commands_update' ? update.update.availableCommands : []
    expect(offered.find((c) => c.name === 'undo')?.description).toMatch(/Take back your last message/)

    expect((await say(p, sessionId, 'first change')).stopReason).toBe('end_turn')
    expect(fs.readFileSync(notes, 'utf8')).toBe('changed by the agent\n')
    let from = p.updates.length
    expect((await say(p, sessionId, '/undo')).stopReason).toBe('end_turn')
    expect(replies(p.updates.slice(from)).join('')).toMatch(/^Undone: 1 file restored \(notes\.txt\)\. Your last message and everything after it are out of the conversation/)
    expect(fs.readFileSync(notes, 'utf8')).toBe('as the person left it\n')

    from = p.updates.length
    await say(p, sessionId, '/undo')
    expect(replies(p.updates.slice(from)).join('')).toBe('Nothing was undone: There is nothing to undo in this session yet.')

    expect((await say(p, sessionId, 'second change')).stopReason).toBe('end_turn')
    fs.writeFileSync(notes, 'the person edited it since\n')
    from = p.updates.length
    await say(p, sessionId, '/undo')
    const refused = replies(p.updates.slice(from)).join('')
    expect(refused).toMatch(/^Nothing was undone: these files changed since/)
    expect(refused).toContain('- notes.txt: ')
    expect(fs.readFileSync(notes, 'utf8')).toBe('the person edited it since\n')
  }, 120_000)
})
