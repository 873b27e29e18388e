import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../testing/harness'
import { expectCase } from './testing/matrix-expect'
import { createRoots, initRepo, settleAll } from './testing/matrix-host'
import { MATRIX_AGENTS, MATRIX_PERMISSIONS } from './testing/matrix-fixture'
import { leftovers } from './testing/matrix-inspect'
import { rootPrompt, scriptFor } from './testing/matrix-script'
import { expectFeature } from './testing/power-expect'
import { FEATURES, powerCases, powerReplies, TURN_LIMIT_REPLY, type Feature } from './testing/power-table'

/**
 * The combination matrix's rows for the power features (issue 16): every per-call control of `task` crossed with
 * parent {root, opaque, inspectable} × child {opaque, inspectable} × mode {blocking, background}. Each feature is
 * one host; its rows run at once, each in its own root session, and each is checked twice: everything the
 * matrix promises for its outcome (matrix-expect), and what the feature adds (power-expect).
 */
const CASES = powerCases()

for (const feature of Object.keys(FEATURES) as Feature[]) {
  describe(`matrix: ${feature}`, () => {
    const cases = CASES.filter((c) => c.feature === feature)
    const roots = new Map<string, string>()
    let h: Harness

    beforeAll(async () => {
      h = await createHarness({
        agents: MATRIX_AGENTS,
        permissions: MATRIX_PERMISSIONS,
        config: FEATURES[feature].config ?? {},
        files: { 'seed.txt': 'seed' },
        script: scriptFor([...cases.flatMap(powerReplies), TURN_LIMIT_REPLY]),
      })
      if (FEATURES[feature].git) initRepo(h.workdir)
      await createRoots(h, cases, roots)
      await Promise.all(cases.map((c) => h.host.api.calls['messages.prompt']({ sessionId: roots.get(c.id)!, requestId: `${c.id}-1`, text: rootPrompt(c) })))
      await settleAll(h)
    }, 60_000)
    afterAll(async () => h?.close())

    it('leaves nothing running, queued or waiting', () => {
      expect(leftovers(h.host.store, [...roots.values()])).toEqual({ busy: [], openParts: [], nestedOpen: [], jobs: [], queued: [], cards: [], approvals: [] })
    })

    it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const run = { host: h.host, events: h.events, roots, dataDir: h.dataDir }
      // An announce-skip child in the background sends nothing: the matrix's "result arrives" checks do not apply.
      if (!(c.feature === 'announce-skip' && c.mode === 'background')) await expectCase(run, c)
      await expectFeature(run, c)
    })
  })
}
