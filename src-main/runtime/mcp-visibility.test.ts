import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { ClientMcpServer } from '../../src-shared'
import { loadConfig } from '../config'
import { withClientMcpServers } from './mcp-visibility'
import type { RunSettings } from './level'

/** The servers an editor passes join a run's configured ones as the person's own (scope `client`). */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'client-mcp-'))
fs.writeFileSync(path.join(dataDir, 'config.yaml'), 'mcp:\n  github: { command: gh-mcp }\n  notes: { url: "http://127.0.0.1:9/mcp" }\n')
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))
const settings: RunSettings = { config: loadConfig(dataDir), rules: { static: [], workspace: [], errors: [] }, agents: [] }
const client = (name: string): ClientMcpServer => ({ name, config: { type: 'stdio', command: `${name}-from-zed` }, from: 'Zed (ACP)' })

describe('withClientMcpServers', () => {
  it.each([
    ['none passed', [], ['github:user', 'notes:user']],
    ['a new one', ['docs'], ['github:user', 'notes:user', 'docs:client']],
    ['one replacing a configured name', ['github'], ['notes:user', 'github:client']],
    ['both', ['github', 'docs'], ['notes:user', 'github:client', 'docs:client']],
  ])('%s', (_label, names, expected) => {
    const out = withClientMcpServers(settings, names.map(client)).config.mcp
    expect(out.map((e) => `${e.name}:${e.source.scope}`)).toEqual(expected)
    for (const e of out.filter((x) => x.source.scope === 'client')) {
      expect(e).toMatchObject({ needsTrust: false, errors: [], source: { file: 'Zed (ACP)' }, config: { command: `${e.name}-from-zed` } })
      expect(e.notes).toEqual(e.name === 'github' ? [expect.stringContaining('replaces the server of the same name in')] : [])
    }
  })

  it('leaves the settings it was given alone (they are shared by the conversation’s other runs)', () => {
    const before = settings.config.mcp.map((e) => e.name)
    withClientMcpServers(settings, [client('github')])
    expect(settings.config.mcp.map((e) => e.name)).toEqual(before)
  })
})
