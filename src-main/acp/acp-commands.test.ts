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

  it('a command file added, edited or removed mid-session reaches the editor when the next prompt ends (before its answer); nothing changed, nothing sent', async () => {
    const s = acpScene({ agents: { '*': [{ text: 'ok', repeat: true }] } }, {}, 'acp-cmd-refresh')
    scenes.push(s)
    const dir = path.join(s.home, 'commands')
    fs.mkdirSync(dir, { recursive: true })
    const { p, sessionId } = await s.open({ env: { ...s.env, HOME: s.home } })
    await p.waitForUpdate((n) => n.update.sessionUpdate === 'available_commands_update')
    const lists = () =>
      p.updates.flatMap((n) => (n.sessionId === sessionId && n.update.sessionUpdate === 'available_commands_update' ? [n.update.availableCommands] : []))
    const names = () => lists().at(-1)?.map((c) => c.name) ?? []
    expect(names()).not.toContain('deploy')

    // Nothing changed: the prompt's answer comes without another list.
    expect((await say(p, sessionId, 'hello')).stopReason).toBe('end_turn')
    expect(lists()).toHaveLength(1)

    // Added while the session is open: the new list is there by the time the prompt's answer is.
    fs.writeFileSync(path.join(dir, 'deploy.md'), '---\ndescription: Deploy to staging\nargument-hint: [env]\n---\nDeploy to $1')
    expect((await say(p, sessionId, 'again')).stopReason).toBe('end_turn')
    expect(lists()).toHaveLength(2)
    expect(lists().at(-1)).toContainEqual({ name: 'deploy', description: 'Deploy to staging', input: { hint: '[env]' } })

    // Edited: the new description; then removed: gone.
    fs.writeFileSync(path.join(dir, 'deploy.md'), '---\ndescription: Deploy to staging or production\nargument-hint: [env]\n---\nDeploy to $1')
    await say(p, sessionId, 'once more')
    expect(lists()).toHaveLength(3)
    expect(lists().at(-1)).toContainEqual({ name: 'deploy', description: 'Deploy to staging or production', input: { hint: '[env]' } })
    fs.rmSync(path.join(dir, 'deploy.md'))
    await say(p, sessionId, 'and again')
    expect(lists()).toHaveLength(4)
    expect(names()).not.toContain('deploy')

    // A prompt the host refuses (an unknown command) does not send the unchanged list either.
    await expect(say(p, sessionId, '/deploy prod')).rejects.toMatchObject({ message: expect.stringContaining('Unknown command /deploy') })
    await say(p, sessionId, 'last')
    expect(lists()).toHaveLength(4)
  }, 90_000)
})
