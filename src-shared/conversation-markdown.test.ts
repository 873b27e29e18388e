import { describe, expect, it } from 'vitest'
import type { MessageWithParts, PartRecord } from './index'
import { conversationMarkdown } from './conversation-markdown'

const part = (messageId: string, type: string, data: Record<string, unknown>, toolState: PartRecord['toolState'] = null): PartRecord => ({
  id: `prt_${messageId}_${type}`,
  messageId,
  sessionId: 'ses_1',
  index: 0,
  type,
  data,
  toolCallId: type.startsWith('tool-') ? 'call_1' : null,
  toolState,
})
const message = (id: string, role: 'user' | 'assistant', parts: PartRecord[], metadata: Record<string, unknown> = {}, createdAt = Date.UTC(2026, 10, 27, 10, 5)): MessageWithParts => ({
  id,
  sessionId: 'ses_1',
  role,
  createdAt,
  updatedAt: createdAt,
  metadata,
  parts,
})

describe('a conversation as Markdown', () => {
  it('headings per message with who and when; tools with state and fenced output; subagents quoted; hidden messages left out', () => {
    const md = conversationMarkdown(
      { title: 'Fix the build', agent: 'build', workspaceRoot: '/w', model: { provider: 'anthropic', model: 'claude' }, createdAt: 0 },
      [
        message('m1', 'user', [
          part('m1', 'text', { text: 'Why does `make` fail?' }),
          part('m1', 'file', { name: 'shot.png', mediaType: 'image/png', size: 70, source: 'attached', data: 'iVBO' }),
          part('m1', 'file', { name: '.env', path: '.env', mediaType: 'text/plain', size: 9, source: 'mention', omitted: 'permission rules deny reading it' }),
        ]),
        message('m2', 'assistant', [
          part('m2', 'tool-bash', { input: { command: 'make' }, output: 'error: ``` is not a target' }, 'output-available'),
          part('m2', 'tool-task', { input: {}, output: 'Found it.', subagent: { agentType: 'explore', description: 'Look around', status: 'completed' } }, 'output-available'),
          part('m2', 'text', { text: 'The Makefile has a typo.' }),
        ], { agent: 'build' }),
        message('m3', 'user', [part('m3', 'text', { text: 'an undone message' })], { hiddenAt: 1 }),
      ],
      new Date(Date.UTC(2026, 10, 28, 9, 0)),
    )
    expect(md).toBe(
      [
        '# Fix the build',
        '',
        '_Agentry conversation · /w · anthropic/claude · exported 2026-11-28 09:00 UTC_',
        '',
        '## You · 2026-11-27 10:05 UTC',
        '',
        'Why does `make` fail?',
        '',
        '_shot.png attached_',
        '',
        '_@.env (not attached: permission rules deny reading it)_',
        '',
        '## build · 2026-11-27 10:05 UTC',
        '',
        '**bash** `{"command":"make"}` — done',
        '',
        '````text',
        'error: ``` is not a target',
        '````',
        '',
        '> **Subagent explore** — Look around (completed)',
        '>',
        '> Found it.',
        '',
        'The Makefile has a typo.',
        '',
      ].join('\n'),
    )
  })
})
