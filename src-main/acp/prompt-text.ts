import type { ContentBlock } from '@agentclientprotocol/sdk/unstable'
import { RequestError } from '@agentclientprotocol/sdk/unstable'
import { fenced } from './tool-view'

/**
 * A prompt's content blocks as the user message Agentry stores and the model reads: text as written; a file the
 * editor attached (`resource`) inline with its path; a link (`resource_link`) as a mention the agent can open with its
 * tools. Images and audio are not offered in `initialize`, so a client must not send them: refused, naming the block.
 */
export function promptText(blocks: ContentBlock[]): string {
  const parts: string[] = []
  blocks.forEach((b, i) => {
    switch (b.type) {
      case 'text':
        parts.push(b.text)
        break
      case 'resource_link':
        parts.push(`@${displayPath(b.uri)}${b.title && b.title !== b.name ? ` (${b.title})` : ''}`)
        break
      case 'resource': {
        const r = b.resource
        if ('text' in r) parts.push(`Attached ${displayPath(r.uri)}:\n${fenced(r.text, languageOf(r.uri))}`)
        else parts.push(`@${displayPath(r.uri)} (binary, not included)`)
        break
      }
      default:
        throw RequestError.invalidParams({ block: i, type: b.type }, `prompt[${i}] is ${b.type} content, which Agentry does not take (see promptCapabilities); send text or files instead`)
    }
  })
  const text = parts.join('\n\n').trim()
  if (!text) throw RequestError.invalidParams(undefined, 'the prompt is empty; send some text')
  return text
}

/** `file:///a/b.ts` → `/a/b.ts`; other URIs as they are. */
function displayPath(uri: string): string {
  if (!uri.startsWith('file://')) return uri
  try {
    return decodeURIComponent(new URL(uri).pathname)
  } catch {
    return uri
  }
}

function languageOf(uri: string): string {
  const m = /\.([A-Za-z0-9]+)$/.exec(uri)
  return m ? m[1].toLowerCase() : ''
}
