import { describe, expect, it } from 'vitest'
import type { AgentListEntry, MessageWithParts, PartRecord, RunNode } from '../../src-shared'
import { applyMention, childrenFromKey, childrenKey, fileToken, mentionAt, mentionOptions, runningChildren, type MentionChild, type MentionOption } from './mentions'
import { emptyTranscript } from './transcript-model'
import type { BackgroundTask } from './transcript-store'

// The composer's `@` menu as data (issue 28): the token before the caret, the three groups, what a pick does.

const agent = (name: string) => ({ name, description: `${name} agent`, mode: 'subagent' }) as AgentListEntry
const child = (id: string, agentType = 'worker', label = `label ${id}`): MentionChild => ({ id, agentType, label })
const file = (path: string) => ({ path, positions: [] })

describe('mentionAt', () => {
  it('finds an `@` name or path before the caret, after a space or at the start', () => {
    expect(mentionAt('@', 1)).toEqual({ start: 0, end: 1, query: '', quoted: false })
    expect(mentionAt('ask @rev', 8)).toEqual({ start: 4, end: 8, query: 'rev', quoted: false })
    expect(mentionAt('see @src/foo-bar.test.ts', 24)?.query).toBe('src/foo-bar.test.ts')
    expect(mentionAt('see @./a/../b_c~d+e', 19)?.query).toBe('./a/../b_c~d+e')
    expect(mentionAt('read @docs/Résumé.md', 20)?.query).toBe('docs/Résumé.md')
    expect(mentionAt('x\n@comp', 7)?.query).toBe('comp')
  })

  it('a quoted path may hold spaces', () => {
    expect(mentionAt('open @"docs/my no', 17)).toEqual({ start: 5, end: 17, query: 'docs/my no', quoted: true })
  })

  it('nothing for an e-mail address, a finished token, a caret elsewhere or a closed menu', () => {
    expect(mentionAt('me@example.com', 14)).toBeNull()
    expect(mentionAt('ask @rev ', 9)).toBeNull()
    expect(mentionAt('ask @rev later', 3)).toBeNull()
    expect(mentionAt('ask @rev', -1)).toBeNull()
    expect(mentionAt('@"a b" ', 7)).toBeNull()
  })
})

describe('fileToken', () => {
  it('is `@` and the workspace-relative path with forward slashes; quoted when it has a space', () => {
    expect(fileToken('src/composer.tsx')).toBe('@src/composer.tsx')
    expect(fileToken('src\\win\\path.ts')).toBe('@src/win/path.ts')
    expect(fileToken('docs/my notes.md')).toBe('@"docs/my notes.md"')
  })
})

describe('mentionOptions', () => {
  const from = {
    files: [file('src/reviewer.ts'), file('src/composer.tsx')],
    children: [child('t1', 'reviewer', 'Check the diff'), child('t2', 'explore', 'Map the repo')],
    agents: [agent('reviewer'), agent('explore'), agent('docs')],
  }
  const kinds = (o: MentionOption[]) => o.map((x) => `${x.kind}:${x.kind === 'file' ? x.path : x.kind === 'child' ? x.child.id : x.agent.name}`)

  it('an empty query: every running child and agent type, no files yet', () => {
    expect(kinds(mentionOptions('', from))).toEqual(['child:t1', 'child:t2', 'agent:reviewer', 'agent:explore', 'agent:docs'])
  })

  it('children, then agent types (the exact groups), then the host-ranked files', () => {
    expect(kinds(mentionOptions('rev', from))).toEqual(['child:t1', 'agent:reviewer', 'file:src/reviewer.ts', 'file:src/composer.tsx'])
    // A child matches by its label too; agent types by the start of their name only.
    expect(kinds(mentionOptions('map', { ...from, files: [] }))).toEqual(['child:t2'])
    expect(kinds(mentionOptions('comp', { ...from, files: [file('src/composer.tsx')] }))).toEqual(['file:src/composer.tsx'])
  })

  it('each group is capped', () => {
    const many = { files: Array.from({ length: 20 }, (_, i) => file(`f${i}`)), children: Array.from({ length: 20 }, (_, i) => child(`c${i}`, 'fx')), agents: [] }
    const o = mentionOptions('f', many, { files: 3, children: 2, agents: 1 })
    expect(kinds(o)).toEqual(['child:c0', 'child:c1', 'file:f0', 'file:f1', 'file:f2'])
  })
})

describe('applyMention', () => {
  const at = (text: string, caret = text.length) => mentionAt(text, caret)!

  it('a file becomes `@path ` in place of the token, the caret after it; the rest of the text stays', () => {
    expect(applyMention('look at @cmp please', at('look at @cmp please', 12), { kind: 'file', key: 'f', path: 'src/composer.tsx', positions: [] })).toEqual({
      text: 'look at @src/composer.tsx please',
      caret: 'look at @src/composer.tsx '.length,
    })
    expect(applyMention('@"docs/my', at('@"docs/my'), { kind: 'file', key: 'f', path: 'docs/my notes.md', positions: [] }).text).toBe('@"docs/my notes.md" ')
  })

  it('an agent type becomes `@name ` (the message is addressed to it, as before)', () => {
    expect(applyMention('ask @ex', at('ask @ex'), { kind: 'agent', key: 'a', agent: agent('explore') })).toEqual({ text: 'ask @explore ', caret: 13 })
  })

  it('a child leaves no token and becomes the recipient', () => {
    const c = child('t1', 'reviewer', 'Check the diff')
    expect(applyMention('@rev', at('@rev'), { kind: 'child', key: 'c', child: c })).toEqual({ text: '', caret: 0, to: c })
    expect(applyMention('hey @rev also this', at('hey @rev also this', 8), { kind: 'child', key: 'c', child: c })).toEqual({ text: 'hey also this', caret: 4, to: c })
  })
})

describe('runningChildren', () => {
  const taskPart = (id: string, status: string, extra: object = {}): PartRecord => ({
    id: `p-${id}`,
    messageId: 'm1',
    sessionId: 'root',
    index: 0,
    type: 'tool-task',
    data: { subagent: { taskId: id, agentType: 'worker', description: `do ${id}`, status, ...extra } },
    toolCallId: `c-${id}`,
    toolState: 'input-available',
  })
  const transcript = (parts: PartRecord[]) => {
    const t = emptyTranscript('root', true)
    t.messageIds.push('m1')
    t.messages.set('m1', { id: 'm1', role: 'assistant', parts } as unknown as MessageWithParts)
    return t
  }
  const task = (taskId: string, status: string, parentSessionId = 'root'): BackgroundTask => ({
    taskId, parentSessionId, agentType: 'bg', description: `bg ${taskId}`, status, inspectable: false, createdAt: 1, endedAt: null,
  })
  const node = (id: string, parentId: string | null, status: RunNode['status'] = 'running') =>
    ({ id, parentId, depth: 0, agentType: 'deep', label: `node ${id}`, status }) as RunNode

  it('the running task cards of the transcript (label over description), background tasks, and the run map below the view', () => {
    const got = runningChildren({
      viewId: 'root',
      rootId: 'root',
      transcript: transcript([taskPart('a', 'running', { options: { label: 'A label' } }), taskPart('b', 'completed'), taskPart('c', 'running')]),
      tasks: { d: task('d', 'running'), e: task('e', 'queued'), f: task('f', 'running', 'elsewhere'), c: task('c', 'running') },
      runMap: { rootId: 'root', nodes: { root: node('root', null), a: node('a', 'root'), g: node('g', 'a'), h: node('h', 'a', 'completed') } },
    })
    expect(got).toEqual([
      { id: 'a', agentType: 'worker', label: 'A label' },
      { id: 'c', agentType: 'worker', label: 'do c' },
      { id: 'd', agentType: 'bg', label: 'bg d' },
      { id: 'g', agentType: 'deep', label: 'node g' },
    ])
  })

  it('a run map of another root, or nodes outside the child on screen, are not offered', () => {
    const nodes = { root: node('root', null), a: node('a', 'root'), b: node('b', 'root'), g: node('g', 'a') }
    expect(runningChildren({ viewId: 'a', rootId: 'root', transcript: undefined, tasks: {}, runMap: { rootId: 'root', nodes } }).map((c) => c.id)).toEqual(['g'])
    expect(runningChildren({ viewId: 'root', rootId: 'root', transcript: undefined, tasks: {}, runMap: { rootId: 'other', nodes } })).toEqual([])
  })

  it('a key round-trips the list (the composer selects a string, so streaming re-renders nothing)', () => {
    const list = [child('a', 'worker', 'one'), child('b', 'explore', '')]
    expect(childrenFromKey(childrenKey(list))).toEqual(list)
    expect(childrenFromKey(childrenKey([]))).toEqual([])
  })
})
