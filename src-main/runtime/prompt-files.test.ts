import { afterEach, describe, expect, it } from 'vitest'
import { FilePartData, PromptAttachment } from '../../src-shared'
import { startScriptedAnthropicServer, startScriptedChatServer, type AnthropicRequest, type ScriptedAnthropicServer, type ScriptedChatServer } from '../models/testing'
import { createHarness, type Harness } from '../testing/harness'
import { mentionedPaths } from './prompt-files'

/**
 * Images and files in prompts (issue 28): what the person attaches, and the workspace files their `@path` mentions
 * name, reach the model through the real providers (loopback servers), and stay in the message as `file` parts.
 */
let h: Harness | undefined
let anthropic: ScriptedAnthropicServer | undefined
let chat: ScriptedChatServer | undefined
afterEach(async () => {
  await h?.close()
  await anthropic?.close()
  await chat?.close()
  h = anthropic = chat = undefined
})

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='
const shot: PromptAttachment = { name: 'shot.png', mediaType: 'image/png', data: PNG }
const notes: PromptAttachment = { name: 'notes.txt', mediaType: 'text/plain', data: Buffer.from('step 1\nstep 2\n').toString('base64') }
const files = { 'src/app.ts': 'export const answer = 42\n', 'secret.txt': 'hunter2\n', 'big.log': 'x'.repeat(300_000), 'bin.dat': '\u0000\u0001\u0002binary' }
const permissions = '{ "read_file": { "*": "allow", "secret.txt": "deny" } }'

const lastUser = (r: AnthropicRequest) => r.messages.filter((m) => m.role === 'user').at(-1)!.content as { type: string; text?: string; source?: { type: string; media_type: string; data: string } }[]

describe('files in prompts', () => {
  it('an Anthropic model gets the image, the attached text file and the mentioned files before the text; denied, large and binary mentions are named with why', async () => {
    anthropic = await startScriptedAnthropicServer(() => ({ text: 'Seen.' }))
    h = await createHarness({ files, permissions, config: { model: 'claude/claude-test', providers: { claude: { type: 'anthropic', baseURL: anthropic.url, apiKey: 'sk-test' } } } })
    const text = 'Why does @src/app.ts fail? Ask @reviewer. Not @secret.txt, @big.log, @bin.dat or @missing.ts. See @src/app.ts.'
    const run = await h.run(text, { attachments: [shot, notes] })
    expect(run.final?.finishReason).toBe('stop')

    const content = lastUser(anthropic.requests.find((r) => !JSON.stringify(r.system).includes('title'))!)
    expect(content.map((c) => c.type)).toEqual(['text', 'image', 'text', 'text', 'text', 'text', 'text', 'text'])
    expect(content[0].text).toBe('[Image shot.png:]')
    expect(content[1].source).toEqual({ type: 'base64', media_type: 'image/png', data: PNG })
    expect(content[2].text).toBe('<file name="notes.txt">\nstep 1\nstep 2\n</file>')
    expect(content[3].text).toBe('<file path="src/app.ts">\nexport const answer = 42\n</file>')
    expect(content[4].text).toBe('[secret.txt was not attached: permission rules deny reading it.]')
    expect(content[5].text).toMatch(/^\[big\.log was not attached: it is 300 KB, more than the 256 KB a mention attaches/)
    expect(content[6].text).toBe('[bin.dat was not attached: it is not a text file.]')
    expect(content[7].text).toBe(text)
    expect(JSON.stringify(content)).not.toContain('hunter2')

    // The message keeps what was sent (the transcript shows it; a retry sends it again).
    const user = run.messages.find((m) => m.role === 'user')!
    const parts = user.parts.filter((p) => p.type === 'file').map((p) => FilePartData.parse(p.data))
    expect(parts.map((p) => [p.source, p.path ?? p.name])).toEqual([
      ['attached', 'shot.png'],
      ['attached', 'notes.txt'],
      ['mention', 'src/app.ts'],
      ['mention', 'secret.txt'],
      ['mention', 'big.log'],
      ['mention', 'bin.dat'],
    ])
    expect(parts[0]).toMatchObject({ mediaType: 'image/png', size: 70, data: PNG })

    await h.host.api.calls['messages.retry']({ sessionId: run.sessionId, requestId: 'again' })
    await waitForRequests(() => anthropic!.requests.filter((r) => !JSON.stringify(r.system).includes('title')).length >= 2)
    const again = lastUser(anthropic.requests.filter((r) => !JSON.stringify(r.system).includes('title')).at(-1)!)
    expect(again.map((c) => c.type)).toEqual(content.map((c) => c.type))
  })

  it('a chat-completions model is told an image was attached and that it cannot see it, unless config.yaml says it takes images', async () => {
    chat = await startScriptedChatServer({ respond: () => ({ text: 'ok' }) })
    const provider = (images?: boolean) => ({ type: 'openai-compatible', baseURL: chat!.url, apiKey: 'k', ...(images === undefined ? {} : { models: { small: { images } } }) })
    h = await createHarness({ config: { model: 'local/small', providers: { local: provider() } } })
    await h.run('what is this', { attachments: [shot] })
    const body = JSON.stringify(chat.requests.at(-1))
    expect(body).toContain('[Image shot.png was attached, but this model cannot see images: tell the person if you need it described.]')
    expect(body).not.toContain(PNG)
    await h.close()

    h = await createHarness({ config: { model: 'local/small', providers: { local: provider(true) } } })
    await h.run('what is this', { attachments: [shot] })
    const sent = (chat.requests.at(-1) as { messages: { role: string; content: unknown }[] }).messages.at(-1)!.content
    expect(sent).toEqual([
      { type: 'text', text: '[Image shot.png:]' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'text', text: 'what is this' },
    ])
    expect((await h.host.api.calls['models.info']({ model: 'local/small' })).images).toBe(true)
  })

  it('a prompt queued behind a running turn keeps its attachments until it starts', async () => {
    chat = await startScriptedChatServer({ respond: (_req, i) => (i === 0 ? { text: 'slow', delayMs: 400 } : { text: 'Seen.' }) })
    h = await createHarness({ config: { model: 'local/small', providers: { local: { type: 'openai-compatible', baseURL: chat.url, apiKey: 'k', models: { small: { images: true } } } } } })
    const first = await h.run('first', { wait: false })
    const queued = await h.host.api.calls['messages.prompt']({ sessionId: first.sessionId, requestId: 'q', text: '', attachments: [shot] })
    expect(queued.queued).toBe(true)
    expect(h.host.store.queue.listQueue(first.sessionId)[0].attachments).toEqual([shot])
    await waitForRequests(() => chat!.requests.some((r) => JSON.stringify(r).includes(PNG)))
  })

  it('Stop hands a queued prompt back with its files', async () => {
    chat = await startScriptedChatServer({ respond: () => ({ text: 'slow', delayMs: 2_000 }) })
    h = await createHarness({ config: { model: 'local/small', providers: { local: { type: 'openai-compatible', baseURL: chat.url, apiKey: 'k' } } } })
    const first = await h.run('first', { wait: false })
    await h.host.api.calls['messages.prompt']({ sessionId: first.sessionId, requestId: 'q', text: 'and this', attachments: [shot, notes] })
    const stopped = await h.host.api.calls['messages.abort']({ sessionId: first.sessionId })
    expect(stopped.returned).toEqual([{ queueId: expect.any(String), text: 'and this', attachments: [shot, notes] }])
  })
})

describe('mentionedPaths', () => {
  it('reads @path and @"path with spaces"; an e-mail address or a word glued to @ is not a mention', () => {
    expect(mentionedPaths('see @src/a.ts, @"docs/my notes.md" and (@b.ts) — mail me@example.com')).toEqual(['src/a.ts,', 'docs/my notes.md', 'b.ts'])
    expect(mentionedPaths('@reviewer please')).toEqual(['reviewer'])
  })
})

describe('PromptAttachment', () => {
  it('names the file and what to do when it cannot be attached', () => {
    const pdf = PromptAttachment.safeParse({ name: 'report.pdf', mediaType: 'application/pdf', data: 'JVBE' })
    expect(pdf.success ? '' : pdf.error.issues[0].message).toBe('report.pdf is application/pdf: only images (PNG, JPEG, GIF, WebP) and text files can be attached')
    const huge = PromptAttachment.safeParse({ name: 'huge.png', mediaType: 'image/png', data: 'A'.repeat(6_700_000) })
    expect(huge.success ? '' : huge.error.issues[0].message).toBe('huge.png is larger than 5 MB, the most an image may be')
    expect(PromptAttachment.safeParse({ name: 'a.json', mediaType: 'application/json', data: 'e30=' }).success).toBe(true)
  })
})

async function waitForRequests(ok: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out waiting for the model request')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('editing a message with files', () => {
  it('the new version carries the files that were attached; mentions are read from the new text', async () => {
    anthropic = await startScriptedAnthropicServer(() => ({ text: 'Seen.' }))
    h = await createHarness({ files, config: { model: 'claude/claude-test', providers: { claude: { type: 'anthropic', baseURL: anthropic.url, apiKey: 'sk-test' } } } })
    const run = await h.run('look at @src/app.ts', { attachments: [shot] })
    const first = run.messages.find((m) => m.role === 'user')!
    await h.host.api.calls['messages.edit']({ sessionId: run.sessionId, requestId: 'edit-1', messageId: first.id, text: 'just the picture' })
    await waitForRequests(() => h!.host.store.transcript.listMessages(run.sessionId).some((m) => m.role === 'assistant' && m.parts.some((p) => p.type === 'text')) && h!.host.store.transcript.listMessages(run.sessionId).filter((m) => m.role === 'user').length === 1 && h!.host.store.transcript.listMessages(run.sessionId)[0].id !== first.id)
    const edited = h.host.store.transcript.listMessages(run.sessionId).find((m) => m.role === 'user')!
    expect(edited.parts.filter((p) => p.type === 'file').map((p) => FilePartData.parse(p.data)).map((f) => [f.source, f.name])).toEqual([['attached', 'shot.png']])
    const content = lastUser(anthropic.requests.at(-1)!)
    expect(content.map((c) => c.type)).toEqual(['text', 'image', 'text'])
  })
})
