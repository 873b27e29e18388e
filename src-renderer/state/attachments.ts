import { isImageType, isTextType, type PromptAttachment } from '../../src-shared'
import { ATTACHMENTS_MAX, ATTACHMENTS_TOTAL_MAX_BYTES, ATTACHMENT_IMAGE_MAX_BYTES, ATTACHMENT_TEXT_MAX_BYTES } from '../../src-shared/limits'

/** A file in the message box, ready to send (or why it cannot be). */
export type Attached = PromptAttachment & { id: number; size: number }

const MB = (n: number) => `${n / 1_000_000} MB`

/** What a picked, pasted or dropped file is to the model: an image, a text file, or neither (refused, with why). */
export function classify(name: string, type: string, size: number, head: Uint8Array): { mediaType: string } | { error: string } {
  if (size === 0) return { error: `${name} is empty, so there is nothing to attach.` }
  if (isImageType(type)) {
    return size > ATTACHMENT_IMAGE_MAX_BYTES ? { error: `${name} is larger than ${MB(ATTACHMENT_IMAGE_MAX_BYTES)}, the most an image may be.` } : { mediaType: type.toLowerCase() }
  }
  // Browsers type files by extension and know few source types (`.ts` even reads as video/mp2t): the bytes decide.
  if (head.includes(0)) return { error: `${name} is neither an image (PNG, JPEG, GIF, WebP) nor a text file, so it cannot be attached.` }
  if (size > ATTACHMENT_TEXT_MAX_BYTES) return { error: `${name} is larger than ${MB(ATTACHMENT_TEXT_MAX_BYTES)}, the most a text file may be; mention it with @ instead and the agent reads what it needs.` }
  return { mediaType: isTextType(type) ? type : 'text/plain' }
}

/** Whether more files fit with those already attached. */
export function roomFor(attached: { size: number }[], size: number): string | null {
  if (attached.length >= ATTACHMENTS_MAX) return `A message takes at most ${ATTACHMENTS_MAX} files.`
  if (attached.reduce((n, a) => n + a.size, 0) + size > ATTACHMENTS_TOTAL_MAX_BYTES) return `The files of one message may add up to ${MB(ATTACHMENTS_TOTAL_MAX_BYTES)} at most.`
  return null
}

let nextId = 1

/** Reads files for the message box: each one attached, or a one-line reason it is not. */
export async function readFiles(files: File[], already: Attached[]): Promise<{ attached: Attached[]; errors: string[] }> {
  const attached: Attached[] = []
  const errors: string[] = []
  for (const file of files) {
    const head = new Uint8Array(await file.slice(0, 8192).arrayBuffer())
    const kind = classify(file.name || 'pasted image', file.type, file.size, head)
    if ('error' in kind) {
      errors.push(kind.error)
      continue
    }
    const full = roomFor([...already, ...attached], file.size)
    if (full) {
      errors.push(`${file.name} was not attached: ${full}`)
      continue
    }
    attached.push({ id: nextId++, name: file.name || defaultName(kind.mediaType), mediaType: kind.mediaType, size: file.size, data: await base64(file) })
  }
  return { attached, errors }
}

/** A pasted screenshot has no name: `pasted-image.png`. */
function defaultName(mediaType: string): string {
  return `pasted-image.${mediaType.split('/')[1] === 'jpeg' ? 'jpg' : (mediaType.split('/')[1] ?? 'png')}`
}

function base64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`))
    reader.readAsDataURL(file)
  })
}

/** What goes to the host (the box's ids and sizes stay here). */
export function toPromptAttachments(list: Attached[]): PromptAttachment[] {
  return list.map(({ name, mediaType, data }) => ({ name, mediaType, data }))
}

export function formatSize(n: number): string {
  if (n < 1000) return `${n} B`
  if (n < 1_000_000) return `${Math.round(n / 1000)} KB`
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')} MB`
}
