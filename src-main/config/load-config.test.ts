import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatConfigIssues, loadConfig } from './index'

let dataDir: string
let workdir: string
let userFile: string
let projectFile: string

beforeEach(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-config-'))
  dataDir = path.join(root, 'data')
  workdir = path.join(root, 'work')
  fs.mkdirSync(dataDir)
  fs.mkdirSync(path.join(workdir, '.agents'), { recursive: true })
  userFile = path.join(dataDir, 'config.yaml')
  projectFile = path.join(workdir, '.agents', 'config.yaml')
})
afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }))

const write = (file: string, text: string) => fs.writeFileSync(file, text)

describe('loadConfig', () => {
  it('gives the defaults when no file exists', () => {
    const r = loadConfig(dataDir, workdir)
    expect(r.issues).toEqual([])
    expect(r.files).toEqual([])
    expect(r.config).toEqual({
      providers: {},
      subagents: { maxDepth: 5, maxConcurrent: 4, timeoutSeconds: 300, archiveAfterMinutes: 60 },
      timeouts: { firstByteSeconds: 60, idleSeconds: 120 },
      sandbox: { enabled: true, writable: [], readOnlyAutoAllow: true },
      checkpoints: { enabled: true, keepDays: 30 },
      containers: { image: 'agentry-sandbox:latest', keep: false, limits: { cpus: 2, memoryMb: 2048, pids: 512 } },
      budgets: { fanOut: { askAboveChildren: 10 } },
      runaway: { maxOutputTokens: 32_000, requestSeconds: 600, repeatedCalls: 5, backgroundRespawns: 3 },
    })
  })

  it('reads the spec example from the data dir', () => {
    write(
      userFile,
      `model: mock/m
providers:
  mock: { type: openai-compatible, baseURL: "http://127.0.0.1:18080/v1", apiKey: x }
  anthropic: { type: anthropic }
  local: { type: ollama, baseURL: "http://127.0.0.1:11434" }
subagents: { maxDepth: 3, maxConcurrent: 2 }
`,
    )
    const r = loadConfig(dataDir)
    expect(r.issues).toEqual([])
    expect(r.files).toEqual([userFile])
    expect(r.config.model).toBe('mock/m')
    expect(Object.keys(r.config.providers)).toEqual(['mock', 'anthropic', 'local'])
    expect(r.config.providers.mock.apiKey).toBe('x')
    expect(r.config.subagents).toEqual({ maxDepth: 3, maxConcurrent: 2, timeoutSeconds: 300, archiveAfterMinutes: 60 })
  })

  it('overlays the project file: model replaced, providers by name, subagents by key', () => {
    write(
      userFile,
      `model: anthropic/claude
providers:
  anthropic: { type: anthropic }
  mock: { type: openai-compatible, baseURL: "http://127.0.0.1:1/v1", apiKey: user }
subagents: { maxDepth: 3, timeoutSeconds: 100 }
`,
    )
    write(
      projectFile,
      `model: mock/m
providers:
  mock: { type: openai-compatible, baseURL: "http://127.0.0.1:2/v1" }
subagents: { maxConcurrent: 9 }
`,
    )
    const r = loadConfig(dataDir, workdir)
    expect(r.issues).toEqual([])
    expect(r.files).toEqual([userFile, projectFile])
    expect(r.config.model).toBe('mock/m')
    expect(r.config.providers.anthropic).toEqual({ type: 'anthropic' })
    // same-named provider is replaced whole (the user's apiKey does not leak into the project's entry)
    expect(r.config.providers.mock).toEqual({ type: 'openai-compatible', baseURL: 'http://127.0.0.1:2/v1' })
    expect(r.config.subagents).toEqual({ maxDepth: 3, maxConcurrent: 9, timeoutSeconds: 100, archiveAfterMinutes: 60 })
  })

  it('ignores the project file when no workdir is given', () => {
    write(projectFile, 'model: p/q\n')
    expect(loadConfig(dataDir).config.model).toBeUndefined()
  })

  it('reports a YAML syntax error with file and line:col, and still applies the other file', () => {
    write(userFile, 'model: a/b\nsubagents:\n  maxDepth: [1\n  maxConcurrent: 2\n')
    write(projectFile, 'subagents: { maxConcurrent: 7 }\n')
    const r = loadConfig(dataDir, workdir)
    expect(r.issues).toHaveLength(1)
    expect(r.issues[0].file).toBe(userFile)
    expect(r.issues[0].reason).toMatch(/^YAML syntax error at line \d+:\d+: /)
    expect(r.config.model).toBeUndefined()
    expect(r.config.subagents.maxConcurrent).toBe(7)
    expect(r.files).toEqual([userFile, projectFile])
  })

  it('reports each unknown key and bad value, and keeps every valid part', () => {
    write(
      userFile,
      `model: justamodel
colour: blue
providers:
  good: { type: anthropic }
  bad: { type: gemini, apiKey: k }
  loose: { type: openai, baseURL: not-a-url, extra: 1 }
subagents:
  maxDepth: 0
  maxConcurrent: 8
  timeoutSeconds: soon
  speed: fast
`,
    )
    const r = loadConfig(dataDir)
    const byPath = Object.fromEntries(r.issues.map((i) => [i.path, i.reason]))
    expect(r.issues.every((i) => i.file === userFile)).toBe(true)
    expect(byPath).toEqual({
      model: 'must be "provider/model" (got "justamodel")',
      colour: 'unknown key; known keys: model, smallModel, providers, subagents, timeouts, models, sandbox, containers, checkpoints, budgets, runaway, mcp, hooks',
      'providers.bad.type': expect.stringMatching(/^must be one of "anthropic", .* or "demo" \(got "gemini"\)$/),
      'providers.loose.baseURL': 'must be a URL such as http://127.0.0.1:11434 (got "not-a-url")',
      'providers.loose.extra': expect.stringMatching(/^unknown key; known keys: type, baseURL, apiKey/),
      'subagents.maxDepth': 'must be at least 1 (got 0)',
      'subagents.timeoutSeconds': 'must be a number, not the text "soon"',
      'subagents.speed': 'unknown key; known keys: maxDepth, maxConcurrent, timeoutSeconds, archiveAfterMinutes, tools, budget',
    })
    // valid parts survive; a provider whose type was bad is dropped whole, its sibling kept
    expect(r.config.model).toBeUndefined()
    expect(r.config.providers).toEqual({ good: { type: 'anthropic' }, loose: { type: 'openai' } })
    expect(r.config.subagents).toEqual({ maxDepth: 5, maxConcurrent: 8, timeoutSeconds: 300, archiveAfterMinutes: 60 })
  })

  it('names the project file for problems found there', () => {
    write(userFile, 'subagents: { maxDepth: 2 }\n')
    write(projectFile, 'subagents: { maxDepth: -1 }\nproviders:\n  "b d": { type: openai }\n')
    const r = loadConfig(dataDir, workdir)
    expect(r.issues.map((i) => [i.file, i.path])).toEqual([
      [projectFile, 'providers["b d"]'],
      [projectFile, 'subagents.maxDepth'],
    ])
    expect(r.issues[0].reason).toMatch(/^invalid name "b d"/)
    expect(r.config.subagents.maxDepth).toBe(2)
    expect(r.config.providers).toEqual({})
  })

  it.each([
    ['untrusted', false],
    ['trusted', true],
  ])('refuses a sandbox setting in a workspace file (%s) with a word naming the file, and keeps the person\'s', (_, trusted) => {
    write(userFile, 'sandbox:\n  writable: [/tmp/mine]\n  readOnlyAutoAllow: false\n')
    // A cloned workspace can neither turn the sandbox off nor let read-only commands run unasked (issue 28).
    write(projectFile, 'model: x/y\nsandbox:\n  enabled: false\n  readOnlyAutoAllow: true\n')
    const r = loadConfig(dataDir, workdir, { trusted })
    expect(r.config.sandbox).toEqual({ enabled: true, writable: ['/tmp/mine'], readOnlyAutoAllow: false })
    expect(r.config.model).toBe('x/y')
    expect(r.issues).toEqual([{ file: projectFile, path: 'sandbox', reason: expect.stringMatching(/^only your own .*config\.yaml sets the sandbox; a workspace file cannot change it/) }])
  })

  it('refuses a checkpoints setting in a workspace file: a cloned workspace cannot turn off undo', () => {
    write(projectFile, 'checkpoints:\n  enabled: false\n')
    const r = loadConfig(dataDir, workdir, { trusted: true })
    expect(r.config.checkpoints).toEqual({ enabled: true, keepDays: 30 })
    expect(r.issues).toEqual([{ file: projectFile, path: 'checkpoints', reason: expect.stringMatching(/^only your own .*config\.yaml sets checkpoints; a workspace file cannot change it/) }])
    write(userFile, 'checkpoints:\n  enabled: false\n')
    expect(loadConfig(dataDir, workdir, { trusted: true }).config.checkpoints).toEqual({ enabled: false, keepDays: 30 })
  })

  it('refuses a containers setting in a workspace file: a cloned workspace cannot send its children to another engine', () => {
    write(projectFile, 'containers:\n  engine: tcp://attacker.example:2375\n')
    const r = loadConfig(dataDir, workdir, { trusted: true })
    expect(r.config.containers.engine).toBeUndefined()
    expect(r.issues).toEqual([{ file: projectFile, path: 'containers', reason: expect.stringMatching(/^only your own .*config\.yaml sets the container engine; a workspace file cannot change it/) }])
    write(userFile, 'containers:\n  engine: unix:///run/podman/podman.sock\n  limits: { cpus: 1 }\n')
    expect(loadConfig(dataDir, workdir, { trusted: true }).config.containers).toMatchObject({ engine: 'unix:///run/podman/podman.sock', limits: { cpus: 1, memoryMb: 2048, pids: 512 } })
    write(userFile, 'containers:\n  engine: /var/run/docker.sock\n')
    expect(loadConfig(dataDir, workdir).issues[0]).toMatchObject({ path: 'containers.engine', reason: expect.stringContaining('must be a URL such as unix:///var/run/docker.sock') })
  })

  it('reports a file that is not a mapping', () => {
    write(userFile, '- model: a/b\n')
    const r = loadConfig(dataDir)
    expect(r.issues).toEqual([{ file: userFile, path: '', reason: expect.stringContaining('must be a mapping of settings') }])
  })

  it('treats an empty file as no settings', () => {
    write(userFile, '# nothing yet\n')
    expect(loadConfig(dataDir)).toMatchObject({ issues: [], files: [userFile] })
  })

  it('reports an unreadable config path instead of throwing', () => {
    fs.mkdirSync(userFile)
    const r = loadConfig(dataDir)
    expect(r.issues).toEqual([{ file: userFile, path: '', reason: expect.stringContaining('EISDIR') }])
  })

  it('resolves a script provider path relative to the file that names it', () => {
    write(projectFile, 'providers:\n  s: { type: script, script: scripts/demo.yaml }\n')
    const r = loadConfig(dataDir, workdir)
    expect(r.config.providers.s.script).toBe(path.join(workdir, '.agents', 'scripts', 'demo.yaml'))
  })
})

describe('formatConfigIssues', () => {
  it('prints one line per issue and a closing instruction', () => {
    const text = formatConfigIssues([
      { file: '/d/config.yaml', path: 'subagents.maxDepth', reason: 'must be at least 1 (got 0)' },
      { file: '/w/.agents/config.yaml', path: '', reason: 'YAML syntax error at line 2:3: bad' },
    ])
    expect(text.split('\n')).toEqual([
      '/d/config.yaml: subagents.maxDepth: must be at least 1 (got 0)',
      '/w/.agents/config.yaml: YAML syntax error at line 2:3: bad',
      'Fix the file(s) above.',
    ])
    expect(formatConfigIssues([])).toBe('')
  })
})
