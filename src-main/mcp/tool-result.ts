import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { ToolAttachment } from '../../src-shared'
import { ToolError, type ToolResult } from '../tools'

/** Images larger than this (decoded) are named in the text but not passed on: they would crowd out the context. */
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024
const MAX_IMAGES = 8

/**
 * An MCP `tools/call` result as a tool result: text as text; images as attachments (the model sees them where its
 * provider takes images in tool results); embedded resources as their text; resource links named with their URI;
 * audio and binary resources named only. `isError` results become tool errors with the same text.
 */
export function toToolResult(result: CallToolResult | { toolResult: unknown }, where: { server: string; tool: string }): ToolResult {
  if ('toolResult' in result) return { output: stringify(result.toolResult), metadata: { mcp: where } }
  const texts: string[] = []
  const attachments: ToolAttachment[] = []
  const image = (mediaType: string, data: string, label: string) => {
    const bytes = Math.floor((data.length * 3) / 4)
    if (bytes > MAX_IMAGE_BYTES || attachments.length >= MAX_IMAGES) {
      texts.push(`[${label}: ${mediaType}, ${formatBytes(bytes)} — too large to pass on]`)
      return
    }
    attachments.push({ type: 'image', mediaType, data })
    texts.push(`[image ${attachments.length}: ${mediaType}, ${formatBytes(bytes)}]`)
  }
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        texts.push(block.text)
        break
      case 'image':
        image(block.mimeType, block.data, 'image')
        break
      case 'audio':
        texts.push(`[audio: ${block.mimeType}, ${formatBytes(Math.floor((block.data.length * 3) / 4))} — audio is not passed to the model]`)
        break
      case 'resource': {
        const r = block.resource
        if ('text' in r) texts.push(`[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}]\n${r.text}`)
        else if (r.mimeType?.startsWith('image/')) image(r.mimeType, r.blob, `resource ${r.uri}`)
        else texts.push(`[resource ${r.uri}: ${r.mimeType ?? 'binary'}, ${formatBytes(Math.floor((r.blob.length * 3) / 4))} — binary content is not shown]`)
        break
      }
      case 'resource_link':
        texts.push(`[resource link: ${block.name} <${block.uri}>${block.mimeType ? ` (${block.mimeType})` : ''}${block.description ? ` — ${block.description}` : ''}]`)
        break
    }
  }
  // Structured output is the answer when there is no content to read (servers should mirror it as text).
  if (texts.length === 0 && result.structuredContent !== undefined) texts.push(stringify(result.structuredContent))
  const output = texts.join('\n')
  if (result.isError) throw new ToolError(output || `${where.tool} failed (the server gave no message)`)
  return { output, metadata: { mcp: where, ...(attachments.length ? { attachments } : {}) } }
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2)
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / (1024 * 1024)).toFixed(1)} MB`
}
