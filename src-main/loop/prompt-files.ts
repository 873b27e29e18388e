import type { LanguageModelV4FilePart, LanguageModelV4TextPart } from '@ai-sdk/provider'
import { FILE_PART_TYPE, FilePartData, isImageType, type MessageWithParts } from '../../src-shared'

type UserContent = Array<LanguageModelV4TextPart | LanguageModelV4FilePart>

/**
 * A user message's files as the model reads them, placed before the message's text (long material first, the
 * request last): a text file inside a `<file>` element that names it, an image as an image where the model takes
 * images, and otherwise one line that says what was attached and why the model does not have it — so it can tell the
 * person instead of guessing.
 */
export function fileContent(message: MessageWithParts, images: boolean): UserContent {
  const out: UserContent = []
  for (const part of message.parts) {
    if (part.type !== FILE_PART_TYPE) continue
    const parsed = FilePartData.safeParse(part.data)
    if (!parsed.success) continue
    const f = parsed.data
    const label = f.path ?? f.name
    const attr = f.path ? `path="${f.path}"` : `name="${f.name}"`
    if (f.omitted) out.push({ type: 'text', text: `[${label} was not attached: ${f.omitted}.]` })
    else if (f.text !== undefined) out.push({ type: 'text', text: `<file ${attr}>\n${f.text}${f.text.endsWith('\n') ? '' : '\n'}</file>` })
    else if (f.data && isImageType(f.mediaType) && images) {
      out.push({ type: 'text', text: `[Image ${label}:]` })
      out.push({ type: 'file', mediaType: f.mediaType, data: { type: 'data', data: f.data }, filename: f.name })
    } else if (f.data) out.push({ type: 'text', text: `[Image ${label} was attached, but this model cannot see images: tell the person if you need it described.]` })
  }
  return out
}
