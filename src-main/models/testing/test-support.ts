import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { LanguageModelV4CallOptions, LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider'

/** Helpers shared by this folder's tests (not exported from index.ts). */

export function tempDir(prefix = 'agentry-models-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

export async function readAll(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<LanguageModelV4StreamPart[]> {
  const parts: LanguageModelV4StreamPart[] = []
  const reader = stream.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return parts
    parts.push(value)
  }
}

export function textOf(parts: LanguageModelV4StreamPart[]): string {
  return parts.map((p) => (p.type === 'text-delta' ? p.delta : '')).join('')
}

export function toolCallsOf(parts: LanguageModelV4StreamPart[]): Array<{ name: string; input: unknown; id: string }> {
  return parts.flatMap((p) => (p.type === 'tool-call' ? [{ name: p.toolName, input: JSON.parse(p.input) as unknown, id: p.toolCallId }] : []))
}

export function userPrompt(text: string, system = 'You are a test agent.'): LanguageModelV4Prompt {
  return [
    { role: 'system', content: system },
    { role: 'user', content: [{ type: 'text', text }] },
  ]
}

/** A prompt after one tool step: user → assistant tool calls → tool results. */
export function afterTools(
  text: string,
  calls: Array<{ id: string; name: string; input: unknown; output: string; denied?: boolean }>,
): LanguageModelV4Prompt {
  return [
    ...userPrompt(text),
    {
      role: 'assistant',
      content: calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.input })),
    },
    {
      role: 'tool',
      content: calls.map((c) => ({
        type: 'tool-result' as const,
        toolCallId: c.id,
        toolName: c.name,
        output: c.denied ? { type: 'execution-denied' as const, reason: c.output } : { type: 'text' as const, value: c.output },
      })),
    },
  ]
}

export function tools(...names: string[]): LanguageModelV4CallOptions['tools'] {
  return names.map((name) => ({ type: 'function' as const, name, inputSchema: { type: 'object' } }))
}
