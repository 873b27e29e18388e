import { describe, expect, it } from 'vitest'
import type { ChangeAuthor, TurnChanges, TurnFileChange } from '../../src-shared'
import { agentsWithChanges, authorLabel, authorsText, displayPath, fileStat, filesOfAgent, hasProtectedConflict, hunkPatch, restoredText, statusLetter, turnsNewestFirst } from './changes-view'

const author = (agentPath: string[], sessionPath: string[], via: ChangeAuthor['via'] = 'file tool'): ChangeAuthor => ({ agentPath, sessionPath, via })

const file = (path: string, o: Partial<TurnFileChange> = {}): TurnFileChange => ({
  path,
  status: 'modified',
  binary: false,
  nested: false,
  additions: 1,
  deletions: 0,
  patch: '',
  hunks: [],
  authors: [],
  ...o,
})

const turn = (checkpointId: string, o: Partial<TurnChanges> = {}): TurnChanges => ({
  checkpointId,
  messageId: `m-${checkpointId}`,
  messagePreview: '',
  startedAt: 0,
  endedAt: 1,
  state: 'applied',
  files: [],
  ...o,
})

describe('authors', () => {
  it('names an agent by its path, marking shell changes', () => {
    expect(authorLabel(author(['build', 'general', 'explore'], ['s1', 's2', 's3']))).toBe('build › general › explore')
    expect(authorLabel(author(['build'], ['s1'], 'shell'))).toBe('build (bash)')
  })

  it('lists each author once, and says when no agent changed the file', () => {
    const worker = author(['build', 'worker'], ['s1', 's2'])
    expect(authorsText([worker, worker, author(['build'], ['s1'], 'shell')])).toBe('build › worker, build (bash)')
    expect(authorsText([])).toBe('not by an agent')
  })
})

describe('file rows', () => {
  it.each([
    ['added', 'A'],
    ['modified', 'M'],
    ['deleted', 'D'],
    ['renamed', 'R'],
  ] as const)('%s → %s', (status, letter) => expect(statusLetter(status)).toBe(letter))

  it('shows a rename as old → new', () => {
    expect(displayPath({ path: 'b.ts', oldPath: 'a.ts', status: 'renamed' })).toBe('a.ts → b.ts')
    expect(displayPath({ path: 'b.ts', status: 'modified' })).toBe('b.ts')
  })

  it('counts lines, or says binary / repository', () => {
    expect(fileStat(file('a', { additions: 3, deletions: 1 }))).toBe('+3 −1')
    expect(fileStat(file('a', { binary: true }))).toBe('binary')
    expect(fileStat(file('a', { nested: true, binary: true }))).toBe('repository')
  })
})

describe('turns', () => {
  it('lists the newest first without changing the answer', () => {
    const turns = [turn('1'), turn('2'), turn('3')]
    expect(turnsNewestFirst(turns).map((t) => t.checkpointId)).toEqual(['3', '2', '1'])
    expect(turns.map((t) => t.checkpointId)).toEqual(['1', '2', '3'])
  })

  it('knows which child sessions changed files still in place, through the agents below them too', () => {
    const turns = [
      turn('1', { files: [file('a', { authors: [author(['build'], ['root'])] })] }),
      turn('2', { files: [file('b', { authors: [author(['build', 'worker', 'explore'], ['root', 'w1', 'e1'])] })] }),
      turn('3', { state: 'undone', files: [file('c', { authors: [author(['build', 'general'], ['root', 'g1'])] })] }),
    ]
    expect([...agentsWithChanges(turns)].sort()).toEqual(['e1', 'w1'])
    expect(filesOfAgent(turns, 'w1')).toEqual(['b'])
    expect(filesOfAgent(turns, 'g1')).toEqual([])
    expect(filesOfAgent(turns, 'root')).toEqual([])
  })
})

describe('one change of a file', () => {
  it('is a unified diff of its own: the file headers, then that hunk with its no-newline marker', () => {
    const hunks = [
      { header: '@@ -1 +1 @@', oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [{ kind: 'delete' as const, text: 'a', oldLine: 1 }, { kind: 'add' as const, text: 'A', newLine: 1 }] },
      { header: '@@ -9 +9 @@', oldStart: 9, oldLines: 1, newStart: 9, newLines: 1, lines: [{ kind: 'delete' as const, text: 'z', oldLine: 9 }, { kind: 'add' as const, text: 'Z', newLine: 9, noNewlineAtEnd: true as const }] },
    ]
    expect(hunkPatch({ path: 'f.txt', hunks }, 1)).toBe('--- a/f.txt\n+++ b/f.txt\n@@ -9 +9 @@\n-z\n+Z\n\\ No newline at end of file\n')
    expect(hunkPatch({ path: 'new.txt', oldPath: 'old.txt', hunks }, 0)).toBe('--- a/old.txt\n+++ b/new.txt\n@@ -1 +1 @@\n-a\n+A\n')
  })
})

describe('outcomes', () => {
  it('says how many files were restored', () => {
    const step = { path: 'a', action: 'restore' as const }
    expect(restoredText({ steps: [step] })).toBe('1 file restored')
    expect(restoredText({ steps: [step, { ...step, path: 'b' }] })).toBe('2 files restored')
    expect(restoredText({ steps: [] })).toBe('no files needed restoring')
  })

  it('tells protected conflicts apart', () => {
    expect(hasProtectedConflict({ conflicts: [{ path: '.agents/x.md', reason: 'protected', detail: '' }] })).toBe(true)
    expect(hasProtectedConflict({ conflicts: [{ path: 'a', reason: 'changed since', detail: '' }] })).toBe(false)
  })
})
