import type { ContentBlock } from '@agentclientprotocol/sdk/unstable'
import { RequestError } from '@agentclientprotocol/sdk/unstable'
import { IMAGE_MEDIA_TYPES, isImageType, type PromptAttachment } from '../../src-shared'
import { ATTACHMENTS_MAX } from '../../src-shared/limits'
import { fenced } from './tool-view'

/**
 * A prompt's content blocks as the user message Agentry stores and the model reads: text as written; a file the
 * editor attached (`resource`) inline with its path; a link (`resource_link`) as a mention the agent can open with its
 * tools; an image (and an embedded binary resource that is an image) as an attachment, which the model sees where it
 * takes images. Audio is not offered in `initialize`, so a client must not send it: refused, naming the block.
 */
export function promptContent(blocks: ContentBlock[]): { text: string; attachments: PromptAttachment[] } {
  const parts: string[] = []
  const attachments: PromptAttachment[] = []
  const attach = (i: number, name: string, mimeType: string, data: string) => {
    if (!isImageType(mimeType)) throw RequestError.invalidParams({ block: i, mimeType }, `prompt[${i}] is an image of type ${mimeType}; Agentry takes ${IMAGE_MEDIA_TYPES.join(', ')}`)
    attachments.push({ name, mediaType: mimeType, data })
  }
  blocks.forEach((b, i) => {
    switch (b.type) {
      case 'text':
        parts.push(b.text)
        break
      case 'image':
        attach(i, b.uri ? nameOf(b.uri) : `image-${attachments.length + 1}.${b.mimeType.split('/')[1] ?? 'png'}`, b.mimeType, b.data)
        break
      case 'resource_link':
        parts.push(`@${displayPath(b.uri)}${b.title && b.title !== b.name ? ` (${b.title})` : ''}`)
        break
      case 'resource': {
        const r = b.resource
        if ('text' in r) parts.push(`Attached ${displayPath(r.uri)}:\n${fenced(r.text, languageOf(r.uri))}`)
        else if (r.mimeType && isImageType(r.mimeType)) attach(i, nameOf(r.uri), r.mimeType, r.blob)
        else parts.push(`@${displayPath(r.uri)} (binary, not included)`)
        break
      }
      default:
        throw RequestError.invalidParams({ block: i, type: b.type }, `prompt[${i}] is ${b.type} content, which Agentry does not take (see promptCapabilities); send text or files instead`)
    }
  })
  const text = parts.join('\n\n').trim()
  if (!text && attachments.length === 0) throw RequestError.invalidParams(undefined, 'the prompt is empty; send some text')
  if (attachments.length > ATTACHMENTS_MAX) throw RequestError.invalidParams(undefined, `the prompt has ${attachments.length} images; send at most ${ATTACHMENTS_MAX} at once`)
  return { text, attachments }
}

/** The last segment of a URI, the name an image is shown by. */
function nameOf(uri: string): string {
  return displayPath(uri).split('/').filter(Boolean).pop() ?? uri
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
