import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - { step: 1, text: "Loosening my rules.", tools: [ { name: write_file, input: { path: ".agents/permissions.jsonc", content: "{ \\"bash\\": \\"allow\\" }" } } ] }
    - { step: 2, text: "Not allowed, fine." }
  title: [ { text: "Trust demo", repeat: true } ]
`

describe('workspace trust in Settings', () => {
  let s: Scenario
  beforeAll(async () => {
    s = await startScenario('trust', {
      script,
      files: {
        '.agents/permissions.jsonc': '{ "bash": "allow", "read_file": { "secrets/**": "deny" } }\n',
        '.agents/config.yaml': 'providers:\n  lab: { type: openai-compatible, baseURL: "http://127.0.0.1:9/v1" }\n',
      },
    })
  }, 90_000)
  afterAll(async () => s?.close())

  it('shows the state, the files and what each changes; Trust pins them, Revoke forgets; the provider is marked', async () => {
    const { page } = s
    await page.click('[data-testid=open-settings]')
    await page.click('[data-testid=settings-nav-sandbox]')
    const section = page.locator('[data-testid=settings-trust]')
    await expect.poll(() => section.getAttribute('data-trust-status'), { timeout: 10_000 }).toBe('untrusted')
    expect(await page.locator('[data-testid=trust-status]').innerText()).toBe('Not trusted')
    const files = page.locator('[data-testid=trust-file]')
    expect(await files.evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))).toEqual(['.agents/permissions.jsonc', '.agents/config.yaml'])
    const loosens = page.locator('[data-testid=trust-change][data-kind=loosens]')
    expect(await loosens.innerText()).toMatch(/bash: allow — your rules say ask \(only when trusted\)/)
    expect(await page.locator('[data-testid=trust-change][data-kind=tightens]').innerText()).toMatch(/secrets\/\*\*.*applies anyway/)
    expect(await page.locator('[data-testid=trust-change][data-kind=provider]').innerText()).toMatch(/defines provider lab: openai-compatible at http:\/\/127\.0\.0\.1:9\/v1/)
    // The provider it defines is marked where providers are listed.
    await page.click('[data-testid=settings-nav-models]')
    expect(await page.locator('[data-testid=provider-row][data-provider=lab] [data-testid=provider-workspace]').innerText()).toMatch(/defined by the workspace/)
    await page.click('[data-testid=settings-nav-sandbox]')
    await section.scrollIntoViewIfNeeded()
    await shot(page, 'trust', '01-untrusted')

    await page.click('[data-testid=trust-workspace]')
    await expect.poll(() => section.getAttribute('data-trust-status')).toBe('trusted')
    expect(await page.locator('[data-testid=trust-status]').innerText()).toBe('Trusted')
    const list = JSON.parse(fs.readFileSync(path.join(s.home, 'trust.json'), 'utf8')) as { workspaces: { root: string; files: { path: string; sha256: string | null }[] }[] }
    expect(list.workspaces.map((w) => w.root)).toEqual([s.workdir])
    // Present files are pinned by content; an absent one (.mcp.json here) is pinned as absent, so creating it later counts as a change.
    const stamps = Object.fromEntries(list.workspaces[0].files.map((f) => [f.path, f.sha256]))
    expect(stamps).toEqual({ '.agents/permissions.jsonc': expect.any(String), '.agents/config.yaml': expect.any(String), '.mcp.json': null, '.claude/settings.json': null, '.claude/settings.local.json': null })
    await shot(page, 'trust', '02-trusted')

    // A changed file: the page shows it on the next load, untrusted again.
    fs.writeFileSync(path.join(s.workdir, '.agents/permissions.jsonc'), '{ "*": "allow" }\n')
    await page.click('[data-testid=close-settings]')
    await page.click('[data-testid=open-settings]')
    await expect.poll(() => section.getAttribute('data-trust-status'), { timeout: 10_000 }).toBe('changed')
    expect(await page.locator('[data-testid=trust-file][data-path=".agents/permissions.jsonc"]').innerText()).toContain('changed since trusted')

    await page.click('[data-testid=revoke-trust]')
    await expect.poll(() => section.getAttribute('data-trust-status')).toBe('untrusted')
    await page.click('[data-testid=close-settings]')
  })

  it('a protected write asks with the reason and offers only "Allow once"', async () => {
    const { page } = s
    const before = fs.readFileSync(path.join(s.workdir, '.agents/permissions.jsonc'), 'utf8')
    await send(page, 'loosen your rules')
    const dialog = page.locator('[data-testid=approval-dialog]')
    await dialog.waitFor({ timeout: 15_000 })
    expect(await page.locator('[data-testid=approval-protected]').innerText()).toMatch(/This changes what agents may do[\s\S]*\.agents\/permissions\.jsonc: \.agents is protected configuration/)
    expect(await page.locator('[data-testid=approval-always-open]').count()).toBe(0)
    await shot(page, 'trust', '03-protected-approval')
    await page.click('[data-testid=approval-deny-open]')
    await page.click('[data-testid=approval-deny-confirm]')
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Not allowed, fine.')
    expect(fs.readFileSync(path.join(s.workdir, '.agents/permissions.jsonc'), 'utf8')).toBe(before)
  })
})
