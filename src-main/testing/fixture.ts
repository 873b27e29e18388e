import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import YAML from 'yaml'
import { Scratchpads } from '../runtime'

/**
 * A data dir and a workspace on disk for a test: config.yaml pointing at a `script` provider, optional
 * permissions.jsonc, files and project agents. Shared by the in-process harness and the child-process restart tests.
 */
export interface Fixture {
  root: string
  dataDir: string
  /** realpath'd */
  workdir: string
  scriptFile: string
  /** replace the script (the script model re-reads a changed file and starts its replies over) */
  setScript(script: Record<string, unknown>): void
  writeAgent(name: string, frontmatter: Record<string, unknown>, body?: string): void
  remove(): void
}

export interface FixtureOptions {
  script?: Record<string, unknown>
  config?: Record<string, unknown>
  files?: Record<string, string>
  permissions?: string
  agents?: Record<string, Record<string, unknown>>
}

export function createFixture(o: FixtureOptions = {}): Fixture {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-test-'))
  const dataDir = path.join(root, 'data')
  fs.mkdirSync(dataDir, { recursive: true })
  fs.mkdirSync(path.join(root, 'work'), { recursive: true })
  const workdir = fs.realpathSync(path.join(root, 'work'))
  const scriptFile = path.join(root, 'script.yaml')
  const setScript = (script: Record<string, unknown>) => {
    fs.writeFileSync(scriptFile, YAML.stringify(script))
    // A rewrite within the same millisecond keeps the mtime; move it so the model sees the change.
    const later = new Date(Date.now() + 1000)
    fs.utimesSync(scriptFile, later, later)
  }
  const writeAgent = (name: string, frontmatter: Record<string, unknown>, body = '') => {
    const dir = path.join(workdir, '.agents', 'agents')
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, `${name}.md`), `---\n${YAML.stringify({ description: `${name} agent`, ...frontmatter })}---\n${body}\n`)
  }
  setScript(o.script ?? { agents: { '*': [{ text: 'ok', repeat: true }] } })
  const extra = (o.config ?? {}) as { providers?: Record<string, Record<string, unknown>> }
  const config = {
    model: 'script/test',
    ...o.config,
    providers: { ...extra.providers, script: { type: 'script', script: scriptFile, ...extra.providers?.script } },
  }
  fs.writeFileSync(path.join(dataDir, 'config.yaml'), YAML.stringify(config))
  if (o.permissions) fs.writeFileSync(path.join(dataDir, 'permissions.jsonc'), o.permissions)
  for (const [rel, text] of Object.entries(o.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(workdir, rel)), { recursive: true })
    fs.writeFileSync(path.join(workdir, rel), text)
  }
  for (const [name, frontmatter] of Object.entries(o.agents ?? {})) writeAgent(name, frontmatter)
  const remove = () => {
    fs.rmSync(root, { recursive: true, force: true })
    // The conversations' scratchpads live in the temp folder, beside (not in) the data dir.
    fs.rmSync(new Scratchpads(dataDir).base, { recursive: true, force: true })
  }
  return { root, dataDir, workdir, scriptFile, setScript, writeAgent, remove }
}
