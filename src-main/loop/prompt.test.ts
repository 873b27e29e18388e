import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { MessageWithParts, PartRecord } from '../../src-shared'
import { BUILTIN_AGENTS } from '../agents'
import { buildPrompt } from './prompt'
import { buildSystemPrompt, CALLER_AGENT_LINE } from './system-prompt'

const msg = (id: string, role: MessageWithParts['role'], parts: Partial<PartRecord>[], metadata: Record<string, unknown> = {}): MessageWithParts => ({
  id,
  sessionId: 's',
  role,
  metadata,
  createdAt: 0,
  updatedAt: 0,
  parts: parts.map((p, i) => ({ id: `${id}-p${i}`, messageId: id, sessionId: 's', index: i, type: 'text', data: {}, toolCallId: null, toolState: null, ...p })),
})

describe('buildPrompt', () => {
  const image = { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' }
  it.each([
    ['a model that takes images: text, then the image', { toolResultImages: true }, 'output-available', [image], { type: 'content', value: [{ type: 'text', text: '[image 1: image/png, 8 B]' }, { type: 'file', data: { type: 'data', data: 'iVBORw0KGgo=' }, mediaType: 'image/png' }] }],
    ['a model that does not: the text that names it', { toolResultImages: false }, 'output-available', [image], { type: 'text', value: '[image 1: image/png, 8 B]' }],
    ['an error: its text only', { toolResultImages: true }, 'output-error', [image], { type: 'error-text', value: '[image 1: image/png, 8 B]' }],
    ['a malformed attachment is left out', { toolResultImages: true }, 'output-available', [{ type: 'image', data: 5 }], { type: 'text', value: '[image 1: image/png, 8 B]' }],
  ])('a tool result with an image attachment, %s', (_label, options, state, attachments, expected) => {
    const text = '[image 1: image/png, 8 B]'
    const prompt = buildPrompt(
      'sys',
      [msg('m1', 'assistant', [{ type: 'tool-mcp__x__shot', toolCallId: 'c1', toolState: state as PartRecord['toolState'], data: { input: {}, output: text, error: text, metadata: { attachments } } }])],
      options,
    )
    expect((prompt[2].content as { output: unknown }[])[0].output).toEqual(expected)
  })

  it('pairs every tool call with a result, including calls cut off by a restart', () => {
    const prompt = buildPrompt('sys', [
      msg('m1', 'user', [{ data: { text: 'hi' } }]),
      msg('m2', 'assistant', [
        { data: { text: 'checking' } },
        { type: 'tool-bash', toolCallId: 'c1', toolState: 'output-available', data: { input: { command: 'ls' }, output: 'a.txt' } },
        { type: 'tool-bash', toolCallId: 'c2', toolState: 'output-error', data: { input: { command: 'sleep 9' }, error: 'aborted by host restart' } },
        { type: 'tool-read_file', toolCallId: 'c3', toolState: 'input-available', data: { input: { path: 'x' } } },
      ]),
    ])
    expect(prompt.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool'])
    const calls = (prompt[2].content as { type: string; toolCallId?: string }[]).filter((c) => c.type === 'tool-call').map((c) => c.toolCallId)
    const results = prompt[3].content as { toolCallId: string; output: { type: string; value: string } }[]
    expect(results.map((r) => r.toolCallId)).toEqual(calls)
    expect(results.map((r) => r.output)).toEqual([
      { type: 'text', value: 'a.txt' },
      { type: 'error-text', value: 'aborted by host restart' },
      { type: 'error-text', value: 'tool call did not complete' },
    ])
  })

  it('shows synthetic background results as user-side notices and leaves out notices and hidden messages', () => {
    const prompt = buildPrompt('sys', [
      msg('m1', 'user', [{ data: { text: 'go' } }]),
      msg('m2', 'assistant', [{ data: { text: 'restart happened' } }], { notice: 'host_restart' }),
      msg('m3', 'assistant', [{ data: { text: 'secret' } }], { hiddenAt: 1 }),
      msg('m4', 'assistant', [{ data: { text: '<task_result agent="explore" task_id="t">x</task_result>' } }], { synthetic: true, task: { taskId: 't', agentType: 'explore', description: 'Look around', outcome: 'completed' } }),
      msg('m5', 'assistant', [{ data: { text: '<task_error agent="general" task_id="u">boom</task_error>' } }], { synthetic: true, task: { taskId: 'u', agentType: 'general', description: 'Fix it', outcome: 'failed' } }),
      // Stored before notices said which task they were (an older data dir): still automated, still a notice.
      msg('m6', 'assistant', [{ data: { text: '<task_result agent="explore" task_id="v">y</task_result>' } }], { synthetic: true }),
    ])
    expect(prompt.slice(1)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'user',
        content: [{ type: 'text', text: '[Automated notice, not from the user] The background task "Look around" (explore, task_id t) finished. Its result (the user has not seen it):\n<task_result agent="explore" task_id="t">x</task_result>' }],
      },
      { role: 'user', content: [{ type: 'text', text: '[Automated notice, not from the user] The background task "Fix it" (general, task_id u) failed:\n<task_error agent="general" task_id="u">boom</task_error>' }] },
      { role: 'user', content: [{ type: 'text', text: '[Automated notice, not from the user] A background task ended:\n<task_result agent="explore" task_id="v">y</task_result>' }] },
    ])
  })
})

describe('buildSystemPrompt', () => {
  const build = BUILTIN_AGENTS.find((a) => a.name === 'build')!
  const tools = [{ name: 'read_file', description: 'Read a file.\nMore details.' }]
  const model = { provider: 'demo', model: 'demo' }

  it('assembles agent prompt → AGENTS.md → environment → tools', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-sys-'))
    fs.writeFileSync(path.join(dir, 'AGENTS.md'), 'Use tabs.')
    fs.writeFileSync(path.join(dir, 'CLAUDE.md'), 'Use spaces.')
    const system = buildSystemPrompt({ agent: build, workdir: dir, tools, model })
    const order = [build.prompt.trim().slice(0, 40), '# Instructions from AGENTS.md\nUse tabs.', '# Environment', `Working directory: ${dir}`, '# Tools\n- read_file: Read a file.']
    const positions = order.map((s) => system.indexOf(s))
    expect(positions.every((p) => p >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(system).not.toContain('Use spaces.')
    expect(system).not.toContain(CALLER_AGENT_LINE)
  })

  it('falls back to CLAUDE.md and adds the caller line only for caller: agent', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agentry-sys-'))
    fs.writeFileSync(path.join(dir, 'CLAUDE.md'), 'Use spaces.')
    const system = buildSystemPrompt({ agent: { ...build, caller: 'agent' }, workdir: dir, tools: [], model })
    expect(system).toContain('# Instructions from CLAUDE.md\nUse spaces.')
    expect(system.split(CALLER_AGENT_LINE)).toHaveLength(2)
  })
})
