import { describe, expect, it } from 'vitest'
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
      source: { kind: 'project', file: FILE },
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
    expect(agent).toMatchObject({ maxSteps: 5, model: 'anthropic/claude-haiku', temperature: 0.3, color: '#ff8800' })
    expect(agent.prompt).toBe('You are a code reviewer.')
  })

  it('accepts an empty body and a "---" inside the prompt', () => {
    expect(agentOf('---\ndescription: d\n---\n').prompt).toBe('')
    expect(agentOf('---\ndescription: d\n---\nabove\n---\nbelow\n').prompt).toBe('above\n---\nbelow')
  })

  it('reports a YAML syntax error with its line in the file', () => {
    const errors = errorsOf('---\ndescription: ok\npermission: { bash: allow\n---\nbody\n')
    expect(errors.length).toBeGreaterThanOrEqual(1)
    expect(errors[0]).toMatchObject({ file: FILE, field: 'frontmatter' })
    expect(errors[0].reason).toMatch(/^YAML syntax error at line [34]:\d+: /)
  })

  it('reports duplicate keys as a YAML error on the right line', () => {
    const [e] = errorsOf('---\ndescription: a\nmode: all\nmode: primary\n---\n')
    expect(e.reason).toMatch(/^YAML syntax error at line 4:1: Map keys must be unique/)
  })

  it('requires frontmatter and its closing line', () => {
    expect(errorsOf('You are a reviewer.\n')).toEqual([
      { file: FILE, field: 'frontmatter', reason: expect.stringContaining('missing YAML frontmatter') },
    ])
    expect(errorsOf('---\ndescription: x\nbody\n')).toEqual([
      { file: FILE, field: 'frontmatter', reason: expect.stringContaining('not closed') },
    ])
    expect(errorsOf('---\n- a\n- b\n---\n')[0]).toMatchObject({ field: 'frontmatter', reason: expect.stringContaining('must be a mapping') })
  })

  it('requires a description', () => {
    expect(errorsOf('---\nmode: subagent\n---\nbody')).toEqual([
      { file: FILE, field: 'description', reason: 'required: add a one-line description' },
    ])
    expect(errorsOf('---\n---\nbody')).toEqual([{ file: FILE, field: 'description', reason: 'required: add a one-line description' }])
    expect(errorsOf('---\ndescription: ""\n---\n')[0].reason).toBe('must not be empty: add a one-line description')
  })

  it('rejects an unknown mode, naming the valid ones', () => {
    expect(errorsOf('---\ndescription: d\nmode: helper\n---\n')).toEqual([
      { file: FILE, field: 'mode', reason: 'must be one of "primary", "subagent" or "all" (got "helper")' },
    ])
  })

  it('rejects a bad permission action at the exact rule', () => {
    const errors = errorsOf('---\ndescription: d\npermission:\n  bash: maybe\n  read_file:\n    "*.env": nope\n  grep: 3\n---\n')
    expect(errors).toEqual([
      { file: FILE, field: 'permission.bash', reason: 'must be one of "allow", "deny" or "ask" or a mapping of pattern → action (got "maybe")' },
      { file: FILE, field: 'permission.read_file["*.env"]', reason: 'must be one of "allow", "deny" or "ask" (got "nope")' },
      { file: FILE, field: 'permission.grep', reason: 'must be one of "allow", "deny" or "ask" or a mapping of pattern → action (got 3)' },
    ])
  })

  it('rejects wrong types with what was found', () => {
    const errors = errorsOf('---\ndescription: d\nmaxSteps: lots\ninspectable: "yes"\ntemperature: 5\nmaxOutputTokens: 1.5\nmodel: gpt4\n---\n')
    expect(Object.fromEntries(errors.map((e) => [e.field, e.reason]))).toEqual({
      maxSteps: 'must be a number, not the text "lots"',
      inspectable: 'must be true or false, not the text "yes"',
      temperature: 'must be at most 2 (got 5)',
      maxOutputTokens: 'must be a whole number, not the number 1.5',
      model: 'must be "inherit" or "provider/model" (got "gpt4")',
    })
  })

  it('rejects unknown keys and lists the known ones', () => {
    const [e] = errorsOf('---\ndescription: d\ntools: [grep]\n---\n')
    expect(e.field).toBe('tools')
    expect(e.reason).toMatch(/^unknown key; known keys: name, description, mode, permission, maxSteps/)
  })

  it('rejects an invalid name field', () => {
    expect(errorsOf('---\nname: Code Reviewer\ndescription: d\n---\n')).toEqual([
      { file: FILE, field: 'name', reason: 'must match [a-z0-9][a-z0-9_-]* (got "Code Reviewer")' },
    ])
  })

  it('rejects a file name that is not a valid name unless name is given', () => {
    const file = '/w/.agents/agents/My Agent.md'
    expect(errorsOf('---\ndescription: d\n---\n', file)).toEqual([
      { file, field: 'name', reason: expect.stringContaining('the file name "My Agent" is not a valid agent name') },
    ])
    expect(agentOf('---\nname: my-agent\ndescription: d\n---\n', file).name).toBe('my-agent')
  })

  it('reports every problem of a file at once', () => {
    const fields = errorsOf('---\nmode: x\nmaxSteps: 0\nfoo: 1\n---\n', '/a/Bad.md').map((e) => e.field)
    expect(fields.sort()).toEqual(['description', 'foo', 'maxSteps', 'mode', 'name'])
  })
})
