import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from './index'

let root: string
let dataDir: string
let workdir: string

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-mcp-config-'))
  dataDir = path.join(root, 'data')
  workdir = path.join(root, 'work')
  fs.mkdirSync(dataDir)
  fs.mkdirSync(path.join(workdir, '.agents'), { recursive: true })
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

const personal = (yaml: string) => fs.writeFileSync(path.join(dataDir, 'config.yaml'), yaml)
const workspaceYaml = (yaml: string) => fs.writeFileSync(path.join(workdir, '.agents', 'config.yaml'), yaml)
const mcpJson = (text: string) => fs.writeFileSync(path.join(workdir, '.mcp.json'), text)
const byName = (trusted = false) => Object.fromEntries(loadConfig(dataDir, workdir, { trusted }).mcp.map((e) => [e.name, e]))

describe('MCP servers in the configuration', () => {
  it('reads the person’s config.yaml, .mcp.json and the workspace’s config.yaml, each server with its source', () => {
    personal('mcp:\n  github: { command: npx, args: [-y, server-github], env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } }\n')
    mcpJson(JSON.stringify({ mcpServers: { docs: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${DOCS_TOKEN}' } } } }))
    workspaceYaml('mcp:\n  fs: { command: node, args: [server.js, .] }\n')
    const loaded = loadConfig(dataDir, workdir)
    expect(loaded.issues).toEqual([])
    expect(loaded.mcpProblems).toEqual([])
    const s = byName()
    expect(s.github).toMatchObject({ config: { command: 'npx', args: ['-y', 'server-github'], env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } }, source: { scope: 'user', file: path.join(dataDir, 'config.yaml') }, needsTrust: false, errors: [] })
    expect(s.docs).toMatchObject({ config: { url: 'https://example.com/mcp' }, source: { scope: 'workspace', file: path.join(workdir, '.mcp.json') }, needsTrust: true })
    expect(s.fs).toMatchObject({ config: { command: 'node' }, source: { scope: 'workspace', file: path.join(workdir, '.agents', 'config.yaml') }, needsTrust: true })
    expect(Object.keys(loaded.config.mcp ?? {})).toEqual(['github', 'docs', 'fs'])
  })

  it('a trusted workspace’s servers need no more trust', () => {
    mcpJson(JSON.stringify({ mcpServers: { docs: { command: 'docs-server' } } }))
    expect(byName(true).docs.needsTrust).toBe(false)
  })

  it('a later file replaces a server of the same name, and says so', () => {
    personal('mcp:\n  github: { command: mine }\n')
    mcpJson(JSON.stringify({ mcpServers: { github: { command: 'theirs' } } }))
    const s = byName()
    expect(s.github.config).toMatchObject({ command: 'theirs' })
    expect(s.github.notes.join('\n')).toContain(`replaces the definition of "github" in ${path.join(dataDir, 'config.yaml')}`)
  })

  it.each([
    ['a number as command', 'mcp:\n  bad: { command: 5 }\n', /mcp\.bad\.command: must be a string/],
    ['neither command nor url', 'mcp:\n  bad: { args: [x] }\n', /mcp\.bad: needs command .* or url/],
    ['a list instead of a mapping', 'mcp:\n  bad: [x]\n', /mcp\.bad: must be a mapping with command/],
    ['env values that are not text', 'mcp:\n  bad: { command: x, env: { PORT: 3000 } }\n', /mcp\.bad\.env\.PORT: must be a string/],
    ['a bad type', 'mcp:\n  bad: { url: "http://x", type: websocket }\n', /mcp\.bad\.type: must be one of "http", "streamable-http" or "sse"/],
    ['a name with a double underscore', 'mcp:\n  bad__name: { command: x }\n', /invalid server name "bad__name"/],
    ['a negative timeout', 'mcp:\n  bad: { command: x, timeoutSeconds: -1 }\n', /mcp\.bad\.timeoutSeconds: must be greater than 0/],
  ])('config.yaml with %s disables only that server, with file, path and reason', (_name, yaml) => {
    personal(`${yaml}  good: { command: fine }\n`)
    const loaded = loadConfig(dataDir, workdir)
    expect(loaded.issues).toEqual([])
    const s = byName()
    expect(s.good).toMatchObject({ config: { command: 'fine' }, errors: [] })
    const bad = Object.values(s).find((e) => e.name !== 'good')!
    expect(bad.config).toBeNull()
    expect(bad.errors.join('\n')).toContain(path.join(dataDir, 'config.yaml'))
    expect(bad.errors.join('\n')).toMatch(_name === 'a number as command' ? /mcp\.bad\.command: must be a string/ : /./)
    expect(Object.keys(loaded.config.mcp ?? {})).toEqual(['good'])
  })

  it('unknown keys other clients write (autoApprove, alwaysAllow) are ignored with a note; the server stays usable', () => {
    mcpJson(JSON.stringify({ mcpServers: { fs: { command: 'x', autoApprove: ['read'], alwaysAllow: [] } } }))
    const s = byName()
    expect(s.fs.config).toEqual({ command: 'x' })
    expect(s.fs.notes).toEqual([`${path.join(workdir, '.mcp.json')}: mcpServers.fs.autoApprove: not a setting here; ignored`, `${path.join(workdir, '.mcp.json')}: mcpServers.fs.alwaysAllow: not a setting here; ignored`])
  })

  it.each([
    ['not JSON', '{ "mcpServers": { "a": ', /not valid JSON at line 1/],
    ['JSON with comments', '{\n // a comment\n "mcpServers": {} }', /not valid JSON at line 2/],
    ['no mcpServers key', '{ "servers": {} }', /must be \{"mcpServers"/],
    ['a list', '[1, 2]', /must be \{"mcpServers"/],
  ])('a .mcp.json that is %s is reported with its file; the other files’ servers still load', (_name, text, reason) => {
    personal('mcp:\n  mine: { command: x }\n')
    mcpJson(text)
    const loaded = loadConfig(dataDir, workdir)
    expect(loaded.issues).toEqual([])
    expect(loaded.mcpProblems).toHaveLength(1)
    expect(loaded.mcpProblems[0].file).toBe(path.join(workdir, '.mcp.json'))
    expect(loaded.mcpProblems[0].reason).toMatch(reason)
    expect(loaded.mcp.map((e) => e.name)).toEqual(['mine'])
  })

  it('a bad mcp section as a whole is reported and the rest of the config applies', () => {
    personal('model: demo/demo\nmcp: [a, b]\n')
    const loaded = loadConfig(dataDir, workdir)
    expect(loaded.issues).toEqual([])
    expect(loaded.config.model).toBe('demo/demo')
    expect(loaded.mcpProblems[0]).toMatchObject({ path: 'mcp', reason: expect.stringMatching(/must be a mapping of server name/) })
  })
})
