import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { podmanEngine } from '../containers/testing/podman'
import { agentry, buildCli, tempDir, writeFiles } from './testing/cli-process'

/** `agentry containers` (issue 29): the engine check a person runs before giving a child a container. */
beforeAll(() => buildCli(), 60_000)
const made: string[] = []
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
})
const found = await podmanEngine()
const engine = 'reason' in found ? undefined : found

function cli(containers: Record<string, unknown>, args: string[] = []) {
  const home = tempDir('containers-home')
  made.push(home)
  writeFiles(home, { 'config.yaml': { containers } })
  return agentry(['containers', ...args], { home, cwd: home })
}

describe('agentry containers', () => {
  it('an engine that is not there: what is wrong and how to start one, exit 1, no stack trace', async () => {
    const r = await cli({ engine: 'unix:///nonexistent/agentry.sock', image: 'busybox:latest' })
    expect(r.code).toBe(1)
    expect(r.stdout).toMatch(/^Engine: unix:\/\/\/nonexistent\/agentry\.sock — not reachable\nImage: busybox:latest\nLimits per child: 2 CPUs, 2048 MB memory, 512 processes; no network unless a rule allows it\nNo container engine at unix:\/\/\/nonexistent\/agentry\.sock/)
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/)
  }, 60_000)

  it.skipIf(!engine)('a usable engine: which one, the image present, exit 0; --json for scripts', async () => {
    const r = await cli({ engine: engine!.url, image: engine!.image, limits: { cpus: 1 } })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(new RegExp(`^Engine: podman \\S+ at ${engine!.url}\\nImage: ${engine!.image} \\(present\\)\\nLimits per child: 1 CPU, 2048 MB memory, 512 processes`))
    expect(r.stdout).toContain('Children with isolation: container can run here.')
    const missing = await cli({ engine: engine!.url, image: 'localhost/agentry-no-such-image:1' }, ['--json'])
    expect(missing.code).toBe(1)
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, kind: 'podman', image: { name: 'localhost/agentry-no-such-image:1', present: false } })
  }, 60_000)
})
