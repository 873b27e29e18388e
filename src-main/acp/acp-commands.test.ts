import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCli } from '../cli/testing/cli-process'
import { acpScene, say } from './testing/acp-client'

/** Slash commands (issue 27) for an editor: `available_commands_update` when a session opens, and `/name args` runs one. */
beforeAll(() => buildCli(), 60_000)
const scenes: { remove(): Promise<void> }[] = []
afterAll(async () => Promise.all(scenes.map((s) => s.remove())))

describe('commands over ACP', () => {
  it('a new session announces its commands (name, description, input hint); a prompt /name args runs the command', async () => {
    const s = acpScene({ agents: { build: [{ match: 'Greet Ada warmly', text: 'Hello, Ada!' }], '*': [{ text: 'Title', repeat: true }] } })
    scenes.push(s)
    // The person's commands in the data dir; HOME points at an empty folder, so no real ~/.claude leaks in.
    fs.mkdirSync(path.join(s.home, 'commands'), { recursive: true })
    fs.writeFileSync(path.join(s.home, 'commands', 'greet.md'), '---\ndescription: Greet someone\nargument-hint: [name]\n---\nGreet $1 warmly')
    const { p, sessionId } = await s.open({ env: { ...s.env, HOME: s.home } })
    const update = await p.waitForUpdate((n) => n.update.sessionUpdate === 'available_commands_update')
    expect(update.sessionId).toBe(sessionId)
    const commands = update.update.sessionUpdate === 'available_commands_update' ? update.update.availableCommands : []
    expect(commands).toContainEqual({ name: 'greet', description: 'Greet someone', input: { hint: '[name]' } })
    expect(commands.map((c) => c.name)).toContain('help')
    // Actions of the app (a new session, its pickers) are not offered to an editor.
    expect(commands.map((c) => c.name)).not.toContain('clear')
    expect((await say(p, sessionId, '/greet Ada')).stopReason).toBe('end_turn')
    const text = p.updates.filter((n) => n.update.sessionUpdate === 'agent_message_chunk').map((n) => (n.update as { content: { text?: string } }).content.text).join('')
    expect(text).toContain('Hello, Ada!')
    await expect(say(p, sessionId, '/gret Ada')).rejects.toMatchObject({ message: expect.stringContaining('Unknown command /gret') })
  }, 90_000)
})
