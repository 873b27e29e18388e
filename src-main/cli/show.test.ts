import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import type { MessageWithParts } from '../../src-shared'
import { printMessages } from './show'

const message = (role: 'user' | 'assistant', text: string, metadata: Record<string, unknown> = {}): MessageWithParts => ({
  id: `msg_${text}`,
  sessionId: 'ses_1',
  role,
  metadata,
  createdAt: 1,
  updatedAt: 1,
  parts: [{ id: `prt_${text}`, messageId: `msg_${text}`, sessionId: 'ses_1', index: 0, type: 'text', data: { text }, toolCallId: null, toolState: null }],
})

describe('agentry show', () => {
  it('says which user messages reached a run while it worked, and from whom (issue 26)', () => {
    const out = new PassThrough()
    let text = ''
    out.on('data', (c: Buffer) => (text += c.toString()))
    printMessages(
      [message('user', 'List the files.'), message('user', 'Only src, please.', { steered: 'person' }), message('user', 'Use tabs.', { steered: 'agent' }), message('assistant', 'Done.', { agent: 'explore' })],
      'explore',
      0,
      out,
    )
    expect(text).toContain('user: List the files.')
    expect(text).toContain('user, while it ran: Only src, please.')
    expect(text).toContain('its caller, while it ran: Use tabs.')
  })
})
