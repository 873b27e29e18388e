import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import type { SubagentMeta, TaskCard } from '../../../src-shared'
import type { MatrixRun } from './matrix-expect'
import { readChain, streamOf, viewerCards } from './matrix-inspect'
import { agentAt } from './matrix-table'
import { LABEL, MODEL_TARGET, PER_CALL_TIMEOUT, type PowerCase } from './power-table'

/** What a power row adds to the matrix's own expectations: the option on the card, in the stored metadata, and in effect. */
export async function expectFeature(run: MatrixRun, c: PowerCase): Promise<void> {
  const { store } = run.host
  const rootId = run.roots.get(c.id)!
  const n = c.chain.length
  const chain = readChain(store, rootId, c)
  const child = chain[n]
  const card = child.card!
  const row = store.sessions.getSession(card.taskId)
  const meta = row?.metadata.subagent as SubagentMeta | undefined
  const inspectable = c.chain[n - 1] === 'inspectable'
  // The viewer's card (from task_update events) carries the same options as the stored one.
  const view = viewerCards(streamOf(run.events, rootId)).get(card.taskId) as TaskCard | undefined
  expect(view?.options).toEqual(card.options)
  if (inspectable) expect(meta?.options).toEqual(card.options)
  else expect(row).toBeUndefined()

  switch (c.feature) {
    case 'model': {
      expect(card.options).toEqual({ model: MODEL_TARGET })
      const [provider, model] = MODEL_TARGET.split('/')
      const answers = child.messages.filter((m) => m.role === 'assistant')
      expect(answers.length).toBeGreaterThan(0)
      for (const m of answers) expect(m.metadata.model).toEqual({ provider, model })
      if (inspectable) expect(row!.model).toEqual({ provider, model })
      // The caller itself stays on its own model.
      const parentAnswers = chain[n - 1].messages.filter((m) => m.role === 'assistant' && !m.metadata.synthetic)
      expect(parentAnswers[0].metadata.model).toEqual({ provider: 'script', model: 'test' })
      break
    }
    case 'max_turns':
      expect(card.options).toEqual({ maxTurns: 1 })
      // One step with tools, then the forced answer: the agent's own limit (10) is not what stopped it.
      expect(card.steps).toBe(2)
      break
    case 'timeout_seconds':
      expect(card.options).toEqual({ timeoutSeconds: PER_CALL_TIMEOUT })
      break
    case 'label': {
      expect(card.options).toEqual({ label: LABEL })
      expect(card.description).toBe(`L${n} of ${c.id}`)
      if (inspectable) expect(row!.title).toBe(LABEL)
      if (c.mode === 'background') {
        const { tasks } = await run.host.api.calls['tasks.list']({ rootSessionId: rootId })
        expect(tasks.find((t) => t.taskId === card.taskId)?.description).toBe(LABEL)
      }
      break
    }
    case 'tool-policy': {
      expect(card.options).toBeUndefined()
      const parts = child.messages.flatMap((m) => m.parts)
      const write = parts.find((p) => p.type === 'tool-write_file')!
      const list = parts.find((p) => p.type === 'tool-list_dir')!
      const read = parts.find((p) => p.type === 'tool-read_file')!
      // Left out of the catalog (denied outright), so the model is told they do not exist for it; read_file works.
      expect([write.toolState, String(write.data.error)]).toEqual(['output-error', expect.stringMatching(/^Unknown tool "write_file"\. Available tools: .*read_file/)])
      expect([list.toolState, String(list.data.error)]).toEqual(['output-error', expect.stringMatching(/^Unknown tool "list_dir"/)])
      expect(String(list.data.error)).not.toMatch(/list_dir,|bash|write_file,/)
      expect(read.toolState).toBe('output-available')
      break
    }
    case 'announce-skip': {
      const parent = chain[n - 1]
      if (c.mode === 'background') {
        // No synthetic message, and nobody was woken: the parent's turn ended with its own answer, and nothing after.
        expect(parent.messages.filter((m) => m.metadata.synthetic)).toEqual([])
        expect(card.status).toBe('completed')
        const answers = parent.messages.filter((m) => m.role === 'assistant').flatMap((m) => m.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text)))
        expect(answers).toEqual([`${c.id} level ${n - 1} done`])
        const { tasks } = await run.host.api.calls['tasks.list']({ rootSessionId: rootId })
        expect(tasks.find((t) => t.taskId === card.taskId)?.status).toBe('completed')
      }
      // Its answer stays readable in its own transcript.
      const texts = child.messages.filter((m) => m.role === 'assistant').flatMap((m) => m.parts.filter((p) => p.type === 'text').map((p) => String(p.data.text)))
      expect(texts).toEqual(['ANNOUNCE_SKIP'])
      break
    }
    case 'fork': {
      expect(card).toMatchObject({ fork: true, agentType: agentAt(c, n - 1), inspectable: false, background: true })
      // Only its own messages are stored in the card: the directive (with the caller's prompt) and its answer.
      expect(child.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
      expect(String(child.messages[0].parts[0].data.text)).toMatch(/^<fork_directive>\nwork <p\d+:L\d>\n<\/fork_directive>/)
      break
    }
    case 'worktree-changed':
    case 'worktree-unchanged': {
      const w = card.worktree!
      const changed = c.feature === 'worktree-changed'
      expect(card.options).toEqual({ isolation: 'worktree' })
      expect(w).toMatchObject({ state: changed ? 'kept' : 'removed', branch: `agentry/${card.taskId}` })
      expect(w.path).toBe(path.join(run.dataDir!, 'worktrees', card.taskId))
      expect(fs.existsSync(w.path)).toBe(changed)
      expect(gitOut(w.repo, ['branch', '--list', w.branch]).trim() !== '').toBe(changed)
      // The child worked in the worktree: its file is there, never in the workspace itself.
      expect(fs.existsSync(path.join(w.repo, `wt-${c.id}.txt`))).toBe(false)
      if (changed) {
        expect(fs.readFileSync(path.join(w.path, `wt-${c.id}.txt`), 'utf8')).toBe(`${c.id}\n`)
        expect(w.diffStat).toBe('1 file changed, 1 insertion(+)')
      }
      break
    }
    case 'cleanup-delete':
    case 'cleanup-keep': {
      const cleanup = c.feature === 'cleanup-delete' ? 'delete' : 'keep'
      expect(card.options).toEqual({ cleanup })
      if (inspectable) {
        // Archived at once (delete) or left for auto-archive (keep); the transcript is readable either way.
        expect(row!.archivedAt !== null).toBe(cleanup === 'delete')
        expect(store.transcript.listMessages(card.taskId).length).toBeGreaterThan(1)
        const listed = store.sessions.listSessions({ parentId: chain[n - 1 - trailingOpaque(c)].sessionId })
        expect(listed.some((s) => s.id === card.taskId)).toBe(cleanup === 'keep')
      }
      break
    }
  }
  expect(agentAt(c, n)).toBe(card.agentType)
}

const gitOut = (cwd: string, args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' })

/** How many opaque levels sit right above the last child (its row hangs from the nearest stored ancestor). */
function trailingOpaque(c: PowerCase): number {
  let k = 0
  for (let i = c.chain.length - 2; i >= 0 && c.chain[i] === 'opaque'; i--) k++
  return k
}
