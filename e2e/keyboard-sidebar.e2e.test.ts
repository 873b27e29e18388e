import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { agentFile } from './support/agents'
import { shot } from './support/browser'
import { send, startScenario, transcriptText, type Scenario } from './support/scenario'

const script = `
agents:
  build:
    - match: "spawn"
      step: 1
      text: "Asking the helper, and a watcher in the background."
      tools:
        - { name: task, input: { subagent_type: helper, description: "Check the docs", prompt: "Check the docs" } }
        - { name: task, input: { subagent_type: watcher, description: "Watch the logs", prompt: "Watch", background: true } }
    - { match: "spawn", step: 2, text: "The helper is done." }
    - { match: "watch", text: "The watcher reported back.", repeat: true }
    - { match: "slow", text: "This answer takes its time to arrive in full, word by word, so it can be stopped halfway through.", chunkDelayMs: 400 }
    - { match: "stop me", text: "Another slow answer that the palette will stop before it is done, word by word.", chunkDelayMs: 400 }
    - { text: "ok", repeat: true }
  plan: [ { text: "Planned.", repeat: true } ]
  helper: [ { text: "Docs checked.", repeat: true } ]
  watcher: [ { delayMs: 300, text: "All quiet.", repeat: true } ]
  title:
    - { match: "spawn", text: "Parent session", repeat: true }
    - { match: "slow", text: "Slow session", repeat: true }
    - { text: "Another session", repeat: true }
`

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    return { testid: el?.dataset.testid ?? null, session: el?.dataset.sessionId ?? null, role: el?.getAttribute('role') ?? null }
  })
const rows = (page: Page) =>
  page.locator('[data-testid=session-row]').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-depth')}:${e.querySelector('[data-testid=session-title]')?.textContent}`))

describe('sidebar and keyboard', () => {
  let s: Scenario
  let parentId = ''
  beforeAll(async () => {
    s = await startScenario('keyboard', {
      script,
      files: {
        ...agentFile('helper', 'description: Checks one thing\nmode: subagent\ninspectable: true\ncolor: "#49a86b"'),
        ...agentFile('watcher', 'description: Watches in the background\nmode: subagent'),
      },
    })
  }, 120_000)
  afterAll(async () => s?.close())

  it('lists conversations, their subagents one ▸ away; across a reload; rows show their time; hidden agents are not in the agent filter', async () => {
    const { page } = s
    await send(page, 'spawn the helpers')
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('The helper is done.')
    // The list shows conversations (issue 28): the inspectable child lives inside its parent until opened.
    await expect.poll(() => rows(page)).toEqual(['0:Parent session'])
    const toggle = page.locator('[data-testid=session-toggle]').first()
    expect(await toggle.getAttribute('aria-label')).toBe('Show its subagents')
    await toggle.click()
    await expect.poll(() => rows(page)).toEqual(['0:Parent session', '1:Check the docs'])
    parentId = decodeURIComponent(/#\/s\/(.+)$/.exec(page.url())?.[1] ?? '')
    await page.reload()
    await page.waitForSelector('[data-testid=session-row]')
    await expect.poll(() => rows(page)).toEqual(['0:Parent session'])
    await page.locator('[data-testid=session-toggle]').first().click()
    await expect.poll(() => rows(page)).toEqual(['0:Parent session', '1:Check the docs'])
    expect(await page.locator('[data-testid=session-time]').first().innerText()).toMatch(/\d/)
    const options = await page.locator('[data-testid=filter-agent] option').allInnerTexts()
    expect(options).toEqual(expect.arrayContaining(['build', 'plan', 'helper']))
    for (const hidden of ['title', 'summary', 'compaction']) expect(options).not.toContain(hidden)
  })

  it('the agent chip follows the session on screen, including a child session; the agent menu works with arrows and Esc', async () => {
    const { page } = s
    const chip = page.locator('[data-testid=agent-picker]')
    await expect.poll(() => chip.getAttribute('data-agent')).toBe('build')
    await page.locator('[data-testid=session-row][data-depth="1"]').click()
    await page.waitForSelector('[data-testid=breadcrumb]')
    await expect.poll(() => chip.getAttribute('data-agent')).toBe('helper')
    await page.click('[data-testid=breadcrumb-link]')
    await expect.poll(() => chip.getAttribute('data-agent')).toBe('build')

    await chip.focus()
    await page.keyboard.press('ArrowDown')
    await page.waitForSelector('[data-testid=agent-menu]')
    await page.keyboard.press('Escape')
    expect(await page.locator('[data-testid=agent-menu]').count()).toBe(0)
    expect((await focused(page)).testid).toBe('agent-picker')
    await page.keyboard.press('ArrowDown')
    const menu = page.locator('[data-testid=agent-menu]')
    const names = await menu.locator('[role=option]').evaluateAll((els) => els.map((e) => e.id.replace('agent-option-', '')))
    const target = names.indexOf('plan')
    const start = names.indexOf('build')
    for (let i = 0; i < (target - start + names.length) % names.length; i++) await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Enter')
    await expect.poll(() => chip.getAttribute('data-agent')).toBe('plan')
    // The pick belongs to this session: another session shows its own agent, and coming back shows the pick.
    await page.locator('[data-testid=session-row][data-depth="1"]').click()
    await expect.poll(() => chip.getAttribute('data-agent')).toBe('helper')
    await page.locator('[data-testid=session-row]', { hasText: 'Parent session' }).click()
    await expect.poll(() => chip.getAttribute('data-agent')).toBe('plan')
    // …and it is the default for the next new session (remembered per workspace).
    await page.click('[data-testid=new-session]')
    await expect.poll(() => chip.getAttribute('data-agent')).toBe('plan')
    await page.click('[data-testid=agent-picker]')
    await page.click('[data-testid=agent-option-build]')
    await page.locator('[data-testid=session-row]', { hasText: 'Parent session' }).click()
  })

  it('rows are reachable with the keyboard: one Tab stop, arrows move, Enter opens, ← goes to the parent', async () => {
    const { page } = s
    await page.locator('[data-testid=session-row]', { hasText: 'Parent session' }).click()
    await page.locator(`[data-testid=session-row][tabindex="0"]`).focus()
    const start = await focused(page)
    expect(start.role).toBe('treeitem')
    const order = await page.locator('[data-testid=session-row]').evaluateAll((els) => els.map((e) => e.getAttribute('data-session-id')))
    const at = order.indexOf(start.session)
    await page.keyboard.press('ArrowDown')
    expect((await focused(page)).session).toBe(order[at + 1])
    await page.keyboard.press('Home')
    expect((await focused(page)).session).toBe(order[0])
    await page.keyboard.press('End')
    const child = (await focused(page)).session
    expect(child).toBe(order[order.length - 1])
    await page.keyboard.press('Enter')
    await expect.poll(() => page.url()).toContain(child ?? '')
    // Opening a session puts the cursor in its message box; the list keeps its place.
    await expect.poll(async () => (await focused(page)).testid).toBe('composer-input')
    await page.locator(`[data-testid=session-row][tabindex="0"]`).focus()
    expect((await focused(page)).session).toBe(child)
    await page.keyboard.press('ArrowLeft')
    expect((await focused(page)).session).toBe(parentId)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('[data-testid=breadcrumb]').count()).toBe(0)
    await expect.poll(() => page.locator('[data-testid=session-heading]').innerText()).toBe('Parent session')
  })

  it('Ctrl+K opens the palette: switch session, switch agent, settings; Esc closes it and gives focus back', async () => {
    const { page } = s
    await page.locator('[data-testid=composer-input]').focus()
    await page.keyboard.press('Control+k')
    const palette = page.locator('[data-testid=palette]')
    await palette.waitFor()
    expect((await focused(page)).testid).toBe('palette-input')
    await shot(page, 'keyboard', '01-palette')
    await page.keyboard.type('switch sess')
    await page.keyboard.press('Enter')
    await page.keyboard.type('check the')
    expect(await palette.locator('[data-testid=palette-item]').allInnerTexts()).toEqual([expect.stringContaining('Check the docs')])
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid=breadcrumb]')
    expect(await palette.count()).toBe(0)

    await page.keyboard.press('Control+k')
    await page.keyboard.type('agent')
    await page.keyboard.press('Enter')
    await page.keyboard.type('plan')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('[data-testid=agent-picker]').getAttribute('data-agent')).toBe('plan')

    await page.keyboard.press('Control+k')
    await page.keyboard.type('settings')
    await page.keyboard.press('Enter')
    await page.waitForSelector('[data-testid=settings]')
    await page.click('[data-testid=close-settings]')

    await page.locator('[data-testid=composer-input]').focus()
    await page.keyboard.press('Control+k')
    await palette.waitFor()
    await page.keyboard.press('Escape')
    expect(await palette.count()).toBe(0)
    expect((await focused(page)).testid).toBe('composer-input')
  })

  it('Alt+N (what a browser tab can get) starts a new session with the composer focused; Esc in an empty composer stops a running turn; the palette can stop too', async () => {
    const { page } = s
    // A browser keeps Ctrl+N for a new window: the palette advertises the key this tab really gets.
    await page.keyboard.press('Control+k')
    await page.keyboard.type('new session')
    expect(await page.locator('[data-testid=palette-item] kbd').first().innerText()).toBe('Alt+N')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Alt+n')
    await page.waitForSelector('[data-testid=empty-state]')
    expect((await focused(page)).testid).toBe('composer-input')
    // The palette test picked plan, which new sessions now start with; this one talks to build.
    await page.click('[data-testid=agent-picker]')
    await page.click('[data-testid=agent-option-build]')
    await send(page, 'slow answer')
    await page.waitForSelector('[data-testid=stop-button]', { timeout: 15_000 })
    await page.locator('[data-testid=composer-input]').focus()
    await page.keyboard.press('Escape')
    // The person's Stop is an expected end (issue 28): a grey "stopped", not a red "aborted".
    await expect.poll(() => page.locator('[data-testid=session-status]').innerText(), { timeout: 15_000 }).toBe('stopped')
    expect(await page.locator('[data-testid=session-status]').getAttribute('class')).toContain('status-stopped')
    expect(await transcriptText(page)).not.toContain('stopped halfway through.')

    await send(page, 'stop me please')
    await page.waitForSelector('[data-testid=stop-button]', { timeout: 15_000 })
    // A message queued behind the run is not sent by Stop (issue 28, bug 2): it comes back after what is typed.
    await page.fill('[data-testid=composer-input]', 'a question for later')
    await page.press('[data-testid=composer-input]', 'Enter')
    await expect.poll(() => page.locator('[data-testid=queue-item]').count()).toBe(1)
    await page.fill('[data-testid=composer-input]', 'half typed')
    await page.keyboard.press('Control+k')
    await page.keyboard.type('stop')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('[data-testid=session-status]').innerText(), { timeout: 15_000 }).toBe('stopped')
    await expect.poll(() => page.inputValue('[data-testid=composer-input]')).toBe('half typed\n\na question for later')
    expect(await page.locator('[data-testid=queue-item]').count()).toBe(0)
    expect(await page.locator('[data-testid=info-notice]').last().innerText()).toContain('Your queued message is back in the message box')
    await shot(page, 'keyboard', '01b-stopped-queue-returned')
    await new Promise((r) => setTimeout(r, 1000))
    expect(await transcriptText(page)).not.toContain('a question for later')
    expect(await page.locator('[data-testid=session-status]').innerText()).toBe('stopped')
    await page.fill('[data-testid=composer-input]', '')
  })

  it('the sidebar collapses (and stays so after a reload); the tasks panel closes and reopens', async () => {
    const { page } = s
    await page.click('[data-testid=sidebar-toggle]')
    expect(await page.locator('[data-testid=session-sidebar]').count()).toBe(0)
    await page.reload()
    await page.waitForSelector('[data-testid=composer-input]')
    expect(await page.locator('[data-testid=session-sidebar]').count()).toBe(0)
    await shot(page, 'keyboard', '02-sidebar-collapsed')
    await page.click('[data-testid=sidebar-toggle]')
    await page.waitForSelector('[data-testid=session-sidebar]')

    await page.locator('[data-testid=session-row]', { hasText: 'Parent session' }).click()
    const panel = page.locator('[data-testid=tasks-panel]')
    await panel.waitFor({ timeout: 15_000 })
    await page.click('[data-testid=tasks-close]')
    expect(await panel.count()).toBe(0)
    await page.click('[data-testid=tasks-reopen]')
    await panel.waitFor()
  })

  it('in a narrow window the tasks panel is a drawer: closed at first, Tasks opens it, Esc and × close it (issue 28)', async () => {
    const { page } = s
    const panel = page.locator('[data-testid=tasks-panel]')
    const drawer = page.locator('[data-testid=drawer-panel]')
    await page.setViewportSize({ width: 760, height: 900 })
    try {
      await panel.waitFor({ state: 'detached', timeout: 3000 })
      await page.focus('[data-testid=tasks-reopen]')
      await page.keyboard.press('Enter')
      await page.locator('[data-testid=drawer-panel] [data-testid=tasks-panel]').waitFor({ timeout: 3000 })
      expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid=drawer-panel]'))).toBe(true)
      await page.waitForTimeout(250)
      await shot(page, 'keyboard', '03-tasks-drawer-760')
      await page.keyboard.press('Escape')
      await drawer.waitFor({ state: 'detached', timeout: 3000 })
      expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('tasks-reopen')
      await page.click('[data-testid=tasks-reopen]')
      await page.click('[data-testid=drawer-panel] [data-testid=tasks-close]')
      await drawer.waitFor({ state: 'detached', timeout: 3000 })
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 })
    }
    // × closed the panel itself: wide again, it stays closed until Tasks.
    expect(await panel.count()).toBe(0)
    await page.click('[data-testid=tasks-reopen]')
    await panel.waitFor()
  })

  it('every control is reachable with Tab and shows where focus is', async () => {
    const { page } = s
    await page.locator('[data-testid=session-row]', { hasText: 'Parent session' }).click()
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    const seen = new Set<string>()
    const invisible: string[] = []
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab')
      const info = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        if (!el || el === document.body) return null
        const st = getComputedStyle(el)
        const ring = st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) > 0
        // The message box shows focus on its frame (the composer's border turns to the focus colour).
        const frame = el.dataset.testid === 'composer-input' && el.closest('.composer') !== null && getComputedStyle(el.closest('.composer') as Element).borderTopColor !== getComputedStyle(document.body).color
        return { id: el.dataset.testid ?? el.getAttribute('role') ?? el.tagName.toLowerCase(), visible: ring || frame }
      })
      if (!info) continue
      seen.add(info.id)
      if (!info.visible) invisible.push(info.id)
    }
    expect(invisible).toEqual([])
    for (const id of ['sidebar-toggle', 'workspace-button', 'open-palette', 'open-settings', 'new-session', 'session-search', 'filter-agent', 'filter-mode', 'filter-archived', 'session-row', 'subagent-expand', 'composer-input', 'agent-picker', 'tasks-close']) {
      expect(seen, `Tab never reached ${id}: ${[...seen].join(', ')}`).toContain(id)
    }
  })

  it('Tab reaches the open session row even when the list has scrolled it far away (issue 28)', async () => {
    const { page } = s
    await page.setViewportSize({ width: 1024, height: 420 })
    try {
      // Enough conversations that the open one (the oldest, at the bottom) is far out of the list's rendered rows.
      for (let i = 0; i < 16; i++) {
        await page.keyboard.press('Alt+n')
        await send(page, `quick ${i}`)
        await expect.poll(() => transcriptText(page), { timeout: 10_000 }).toContain('ok')
      }
      const list = page.locator('[data-testid=session-list]')
      await list.evaluate((el) => (el.scrollTop = el.scrollHeight))
      const oldest = page.locator('[data-testid=session-row]').last()
      const oldestId = await oldest.getAttribute('data-session-id')
      await oldest.click()
      await list.evaluate((el) => (el.scrollTop = 0))
      await page.waitForTimeout(100)
      await page.locator('[data-testid=session-search]').focus()
      let at = await focused(page)
      for (let i = 0; i < 6 && at.role !== 'treeitem' && at.testid !== 'session-list'; i++) {
        await page.keyboard.press('Tab')
        at = await focused(page)
      }
      expect(at).toMatchObject({ role: 'treeitem', session: oldestId })
      // And the arrows move from there (they used to scroll the list).
      await page.keyboard.press('ArrowUp')
      expect((await focused(page)).role).toBe('treeitem')
      expect((await focused(page)).session).not.toBe(oldestId)
    } finally {
      await page.setViewportSize({ width: 1400, height: 900 })
    }
  })
})
