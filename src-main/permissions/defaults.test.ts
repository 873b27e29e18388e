import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { PermissionAction } from '../../src-shared'
import { decide, type PermissionRequest } from './decide'
import { DEFAULT_PERMISSIONS_JSONC } from './defaults'
import { fromCompact } from './ruleset'
import { loadStaticRules } from './static-rules'
import type { SubjectKind } from './matcher'
import { loadShellGrammar } from './shell'

beforeAll(() => loadShellGrammar())

function defaultRules() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-defaults-'))
  try {
    const file = path.join(dir, 'permissions.jsonc')
    fs.writeFileSync(file, DEFAULT_PERMISSIONS_JSONC)
    const { rules, errors } = loadStaticRules([file])
    expect(errors).toEqual([])
    return rules
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
const DEFAULTS = defaultRules()
const KIND: Record<string, SubjectKind> = { bash: 'command', web_fetch: 'host', task: 'name', skill: 'name' }

/** Decide with only the default static rules (an agent without rules of its own). */
function withDefaults(tool: string, subject: string, agent = fromCompact({})): PermissionAction {
  const req: PermissionRequest = { tool, kind: KIND[tool] ?? (subject === '' ? 'other' : 'path'), subjects: [subject] }
  return decide([{ agent, static: DEFAULTS, runtime: [] }], req).action
}

describe('default permissions.jsonc', () => {
  it('is commented so users can read it', () => {
    expect(DEFAULT_PERMISSIONS_JSONC).toMatch(/^\/\/ Agentry permission rules/)
    expect(DEFAULT_PERMISSIONS_JSONC.split('\n').filter((l) => l.trim().startsWith('//')).length).toBeGreaterThan(10)
  })

  it.each<[string, string, PermissionAction]>([
    ['read_file', 'src/index.ts', 'allow'],
    ['read_file', '.env', 'deny'],
    ['read_file', 'config/.env', 'deny'],
    ['read_file', 'prod.env', 'deny'],
    ['read_file', '.env.local', 'deny'],
    ['read_file', 'config/.env.production', 'deny'],
    ['read_file', '.env.example', 'allow'],
    ['read_file', 'config/.env.example', 'allow'],
    ['read_file', '.ssh/id_rsa', 'deny'],
    ['read_file', 'home/me/.ssh/config', 'deny'],
    ['read_file', 'my-secret.txt', 'deny'],
    ['read_file', 'config/secrets.yaml', 'deny'],
    ['read_file', 'aws/credentials.json', 'deny'],
    ['read_file', '/etc/hosts', 'deny'],
    ['list_dir', 'src', 'allow'],
    ['glob', 'src/**/*.ts', 'allow'],
    ['grep', 'src', 'allow'],
    ['todo', '', 'allow'],
    ['question', '', 'allow'],
    ['task', 'explore', 'allow'],
    ['skill', 'pdf', 'allow'],
    ['write_file', 'src/a.ts', 'allow'],
    ['write_file', '.github/workflows/ci.yml', 'allow'],
    ['write_file', '.env', 'deny'],
    ['write_file', 'config/.env.local', 'deny'],
    ['write_file', '/tmp/outside.txt', 'deny'],
    ['edit_file', 'src/a.ts', 'allow'],
    ['edit_file', '.env.production', 'deny'],
    ['bash', 'ls -la', 'ask'],
    ['web_fetch', 'example.org', 'ask'],
    ['plan_exit', '', 'ask'],
    ['web_search', '', 'ask'],
    ['mcp__github__create_issue', 'create_issue', 'ask'],
    ['mcp__everything__echo', 'echo', 'ask'],
  ])('%s %j → %s', (tool, subject, action) => {
    expect(withDefaults(tool, subject)).toBe(action)
  })

  it("build's \"*\": allow still asks before bash; explore's \"*\": deny still vetoes it", () => {
    expect(withDefaults('bash', 'ls', fromCompact({ '*': 'allow' }))).toBe('ask')
    expect(withDefaults('bash', 'ls', fromCompact({ '*': 'deny', read_file: 'allow' }))).toBe('deny')
    expect(withDefaults('read_file', '.env', fromCompact({ '*': 'allow' }))).toBe('deny')
  })

  it('MCP tools ask under the defaults even for an agent whose own rules allow everything; without the mcp__* line "*" still asks', () => {
    expect(withDefaults('mcp__github__create_issue', 'create_issue', fromCompact({ '*': 'allow' }))).toBe('ask')
    const withoutLine = DEFAULTS.filter((r) => r.tool !== 'mcp__*')
    expect(withoutLine.length).toBe(DEFAULTS.length - 1)
    const req: PermissionRequest = { tool: 'mcp__github__create_issue', kind: 'name', subjects: ['create_issue'] }
    expect(decide([{ agent: fromCompact({ '*': 'allow' }), static: withoutLine, runtime: [] }], req).action).toBe('ask')
  })
})
