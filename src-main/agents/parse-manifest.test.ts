import { describe, expect, it } from 'vitest'
import { aliasBomb } from '../config/testing/yaml-bombs'
import { parseManifest } from './index'

const FILE = '/w/.agents/agents/reviewer.md'

function errorsOf(text: string, file = FILE) {
  const r = parseManifest(file, text, 'project')
  if (!('errors' in r)) throw new Error(`expected errors, got agent ${r.agent.name}`)
  return r.errors
}

function agentOf(text: string, file = FILE) {
  const r = parseManifest(file, text, 'project')
  if ('errors' in r) throw new Error(`expected an agent, got ${JSON.stringify(r.errors)}`)
  return r.agent
}

describe('parseManifest', () => {
  it('applies the documented defaults and takes the name from the file', () => {
    const agent = agentOf('---\ndescription: Reviews code\n---\n\nYou are a reviewer.\n\n')
    expect(agent).toEqual({
      name: 'reviewer',
      description: 'Reviews code',
      mode: 'all',
      permission: { '*': 'allow' },
      maxSteps: 10,
      model: 'inherit',
      inspectable: false,
      caller: 'user',
      background: false,
      hidden: false,
      prompt: 'You are a reviewer.',
      source: { kind: 'project', file: FILE, format: 'agentry' },
      warnings: [],
    })
  })

  it('reads the seed example: nested permission, explicit name, CRLF and a BOM', () => {
    const text =
      '\uFEFF---\r\nname: code-review\r\ndescription: Code review agent\r\nmode: subagent\r\npermission:\r\n  "*": deny\r\n  grep: allow\r\n  read_file:\r\n    "*": allow\r\n    "*.env": deny\r\nmaxSteps: 5\r\nmodel: anthropic/claude-haiku\r\ntemperature: 0.3\r\ncolor: "#ff8800"\r\n---\r\nYou are a code reviewer.\r\n'
    const agent = agentOf(text)
    expect(agent.name).toBe('code-review')
    expect(agent.mode).toBe('subagent')
    expect(agent.permission).toEqual({ '*': 'deny', grep: 'allow', read_file: { '*': 'allow', '*.env': 'deny' } })
    // rule order is meaningful (last match wins), so it must survive parsing
    expect(Object.keys(agent.permission)).toEqual(['*', 'grep', 'read_file'])
    expect(agent).toMatchObject({ maxSteps: 5, model: 'anthropic/claude-haiku', temperature: 0.3, color: '#ff8800', warnings: [] })
    expect(agent.prompt).toBe('You are a code reviewer.')
  })

  it.each([
    ['an empty body', '---\ndescription: d\n---\n', ''],
    ['no body and no final newline', '---\ndescription: d\n---', ''],
    ['no trailing newline', '---\ndescription: d\n---\nPrompt', 'Prompt'],
    ['CRLF throughout', '---\r\ndescription: d\r\n---\r\nline one\r\nline two\r\n', 'line one\nline two'],
    ['a BOM', '\uFEFF---\ndescription: d\n---\nPrompt\n', 'Prompt'],
    ['a "---" inside the prompt', '---\ndescription: d\n---\nabove\n---\nbelow\n', 'above\n---\nbelow'],
  ])('loads a file with %s', (_label, text, prompt) => {
    const agent = agentOf(text)
    expect(agent.prompt).toBe(prompt)
    expect(agent.warnings).toEqual([])
  })

  it('accepts a frontmatter closed by a long dash line (as Claude Code does), with a warning', () => {
    const agent = agentOf('---\nname: frontend\ndescription: d\n------------------\n# Title\n')
    expect(agent.prompt).toBe('# Title')
    expect(agent.warnings).toEqual([{ field: 'frontmatter', line: 4, reason: 'closed by a line of 18 dashes; use exactly "---"' }])
  })

  it('loads a value that is not valid YAML only because of an unquoted ": " as the text meant, warning on its line (issue 27)', () => {
    const r = parseManifest(FILE, '---\nname: x\ndescription: Use it for: Rails work. Examples: <example>Context: x</example>\nmode: subagent\n---\nbody\n', 'project')
    if ('errors' in r) throw new Error(JSON.stringify(r.errors))
    expect(r.agent.description).toBe('Use it for: Rails work. Examples: <example>Context: x</example>')
    expect(r.agent.mode).toBe('subagent')
    expect(r.agent.warnings).toEqual([
      { field: 'description', line: 3, reason: 'the value is not valid YAML (it contains ": " or another character YAML reads as syntax); it was read as plain text. Quote it: description: "Use it for: Rails work. Examples: <example>Context: x</ex…"' },
    ])
  })

  it('still reports YAML that is broken beyond an unquoted value, with its line and the usual fix', () => {
    const errors = errorsOf('---\nname: x\ndescription: [unclosed\nnot a key line\n---\nbody\n')
    expect(errors).toEqual([{ file: FILE, field: 'frontmatter', line: expect.any(Number), reason: expect.stringMatching(/^YAML syntax error at line \d+:\d+: /) }])
  })

  it('reports duplicate keys as a YAML error on the right line', () => {
    const [e] = errorsOf('---\ndescription: a\nmode: all\nmode: primary\n---\n')
    expect(e.line).toBe(4)
    expect(e.reason).toBe('YAML syntax error at line 4:1: duplicated mapping key; remove or rename one of the two keys')
  })

  it('refuses an alias bomb in the frontmatter without expanding it, naming the line', () => {
    const [e] = errorsOf(`---\ndescription: d\n${aliasBomb('z')}---\n`)
    expect(e).toMatchObject({ field: 'frontmatter', line: 4 })
    expect(e.reason).toMatch(/^YAML refused at line 4:\d+: aliases \(\*name\) expand to more than 50 copies/)
  })

  it('refuses a file over 1 MiB', () => {
    const [e] = errorsOf(`---\ndescription: d\n---\n${'x'.repeat(1024 * 1024)}`)
    expect(e).toMatchObject({ field: 'file', reason: expect.stringContaining('larger than 1 MiB') })
  })

  it('requires frontmatter and its closing line', () => {
    expect(errorsOf('You are a reviewer.\n')).toEqual([
      { file: FILE, field: 'frontmatter', line: 1, reason: expect.stringContaining('missing YAML frontmatter') },
    ])
    expect(errorsOf('---\ndescription: x\nbody\n')).toEqual([
      { file: FILE, field: 'frontmatter', line: 4, reason: expect.stringContaining('not closed') },
    ])
    expect(errorsOf('---\n- a\n- b\n---\n')[0]).toMatchObject({ field: 'frontmatter', reason: expect.stringContaining('must be a mapping') })
  })

  it('requires a description', () => {
    expect(errorsOf('---\nmode: subagent\n---\nbody')).toEqual([
      { file: FILE, field: 'description', reason: 'required: add a one-line description, e.g. description: Reviews code for bugs' },
    ])
    expect(errorsOf('---\n---\nbody')[0].field).toBe('description')
    expect(errorsOf('---\ndescription: ""\n---\n')[0]).toMatchObject({ line: 2, reason: 'must not be empty: add a one-line description' })
  })

  it('rejects an unknown mode, naming the valid ones and the line', () => {
    expect(errorsOf('---\ndescription: d\nmode: helper\n---\n')).toEqual([
      { file: FILE, field: 'mode', line: 3, reason: 'must be one of "primary", "subagent" or "all" (got "helper")' },
    ])
  })

  it('rejects a bad permission action at the exact rule', () => {
    const errors = errorsOf('---\ndescription: d\npermission:\n  bash: maybe\n  read_file:\n    "*.env": nope\n  grep: 3\n---\n')
    expect(errors).toEqual([
      { file: FILE, field: 'permission.bash', line: 4, reason: 'must be one of "allow", "deny" or "ask" or a mapping of pattern → action (got "maybe")' },
      { file: FILE, field: 'permission.read_file["*.env"]', line: 6, reason: 'must be one of "allow", "deny" or "ask" (got "nope")' },
      { file: FILE, field: 'permission.grep', line: 7, reason: 'must be one of "allow", "deny" or "ask" or a mapping of pattern → action (got 3)' },
    ])
  })

  it('rejects wrong types with what was found, in the author\'s key names', () => {
    const errors = errorsOf('---\ndescription: d\nmaxTurns: lots\ninspectable: "yes"\ntemperature: 5\nmaxOutputTokens: 1.5\nmodel: two words\n---\n')
    expect(Object.fromEntries(errors.map((e) => [e.field, [e.line, e.reason]]))).toEqual({
      maxTurns: [3, 'must be a number, not the text "lots"'],
      inspectable: [4, 'must be true or false, not the text "yes"'],
      temperature: [5, 'must be at most 2 (got 5)'],
      maxOutputTokens: [6, 'must be a whole number, not the number 1.5'],
      model: [7, 'must be "inherit", "provider/model" or a model alias such as "sonnet" (got "two words")'],
    })
  })

  it('turns unknown keys into warnings with their lines, and still loads', () => {
    const agent = agentOf('---\nid: reviewer\ndescription: d\nversion: 1.0.0\ntags: [a, b]\n---\n')
    expect(agent.warnings).toEqual([
      { field: 'id', line: 2, reason: 'not an agent setting here; ignored' },
      { field: 'version', line: 4, reason: 'not an agent setting here; ignored' },
      { field: 'tags', line: 5, reason: 'not an agent setting here; ignored' },
    ])
  })

  it.each([
    ['Code Reviewer', 'code-reviewer', 'Code Reviewer'],
    ['OpenAgent', 'openagent', 'OpenAgent'],
    ['powershell-5.1-expert', 'powershell-5-1-expert', 'powershell-5.1-expert'],
    ['Python Testing Expert', 'python-testing-expert', 'Python Testing Expert'],
    ['  Café  Crème ', 'cafe-creme', 'Café  Crème'],
    ['already-a-slug', 'already-a-slug', undefined],
    ['!!!', 'reviewer', undefined],
  ])('normalizes the name %j to the slug %j, keeping the display name', (given, slug, display) => {
    const agent = agentOf(`---\nname: ${JSON.stringify(given)}\ndescription: d\n---\n`)
    expect(agent.name).toBe(slug)
    expect(agent.displayName).toBe(display)
  })

  it('takes a slug of the file name when the file name is not one', () => {
    expect(agentOf('---\ndescription: d\n---\n', '/w/.agents/agents/My Agent.md').name).toBe('my-agent')
    expect(errorsOf('---\ndescription: d\n---\n', '/w/.agents/agents/???.md')[0]).toMatchObject({ field: 'name' })
  })

  it('reports every problem of a file at once', () => {
    const fields = errorsOf('---\nmode: x\nmaxSteps: 0\nfoo: 1\ntools: 3\n---\n', '/a/Bad.md').map((e) => e.field)
    expect(fields.sort()).toEqual(['description', 'maxSteps', 'mode', 'tools'])
  })
})
