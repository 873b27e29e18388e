import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Workspaces } from './workspaces'

const made: string[] = []
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})
const tmp = () => {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ws-complete-')))
  made.push(d)
  return d
}

describe('completing a folder path (issue 28: the browser has no folder dialog)', () => {
  it('offers the folders under what is typed: case-insensitive, folders and links to folders only, hidden ones only for a dot', () => {
    const root = tmp()
    for (const d of ['projects', 'Photos', '.config', 'pub']) fs.mkdirSync(path.join(root, d))
    fs.writeFileSync(path.join(root, 'pfile.txt'), 'x')
    fs.symlinkSync(path.join(root, 'projects'), path.join(root, 'plink'))
    fs.symlinkSync(path.join(root, 'gone'), path.join(root, 'pdangling'))
    const w = new Workspaces(tmp(), root)
    expect(w.complete(path.join(root, 'p'))).toEqual([`${root}/Photos/`, `${root}/plink/`, `${root}/projects/`, `${root}/pub/`])
    expect(w.complete(`${root}/`)).not.toContain(`${root}/.config/`)
    expect(w.complete(path.join(root, '.c'))).toEqual([`${root}/.config/`])
    expect(w.complete('~/pro', root)).toEqual([`${root}/projects/`])
    expect(w.complete(path.join(root, 'nope', 'x'))).toEqual([])
    expect(w.complete('relative/path')).toEqual([])
  })
})
