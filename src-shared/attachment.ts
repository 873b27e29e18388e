import { z } from 'zod'
import { lazy } from './lazy'
import { ATTACHMENTS_MAX, ATTACHMENTS_TOTAL_MAX_BYTES, ATTACHMENT_IMAGE_MAX_BYTES, ATTACHMENT_TEXT_MAX_BYTES } from './limits'

/** Image types every provider that takes images accepts (Anthropic's, OpenAI's and the chat-completions list agree). */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const

/** base64 characters for n bytes */
const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4

/**
 * A file the person pasted or dropped into a prompt (or an editor sent over ACP): an image for models that take
 * images, or a text file whose content the model reads. Sent whole, base64; checked here so a bad one is refused at
 * the boundary with its name.
 */
export const PromptAttachment = lazy(() =>
  z
    .object({
      /** the file's name as the person knows it (`screenshot.png`) */
      name: z.string().min(1).max(255),
      mediaType: z.string().min(1).max(255),
      /** base64 (the hard cap is twice the largest limit: a file a little too large gets the message below that names it) */
      data: z.string().min(1).max(base64Length(2 * Math.max(ATTACHMENT_IMAGE_MAX_BYTES, ATTACHMENT_TEXT_MAX_BYTES))),
    })
    .strict()
    .superRefine((a, ctx) => {
      const image = isImageType(a.mediaType)
      if (!image && !isTextType(a.mediaType)) {
        ctx.addIssue({ code: 'custom', path: ['mediaType'], message: `${a.name} is ${a.mediaType}: only images (PNG, JPEG, GIF, WebP) and text files can be attached` })
      }
      const limit = image ? ATTACHMENT_IMAGE_MAX_BYTES : ATTACHMENT_TEXT_MAX_BYTES
      if (a.data.length > base64Length(limit)) {
        ctx.addIssue({ code: 'custom', path: ['data'], message: `${a.name} is larger than ${Math.round(limit / 1_000_000)} MB, the most ${image ? 'an image' : 'a text file'} may be` })
      }
    })
)
export type PromptAttachment = z.infer<typeof PromptAttachment>

export const PromptAttachments = lazy(() =>
  z
    .array(PromptAttachment)
    .max(ATTACHMENTS_MAX)
    .refine((list) => list.reduce((n, a) => n + a.data.length, 0) <= base64Length(ATTACHMENTS_TOTAL_MAX_BYTES), {
      message: `the attachments add up to more than ${ATTACHMENTS_TOTAL_MAX_BYTES / 1_000_000} MB; send fewer or smaller files`,
    })
)

export function isImageType(mediaType: string): boolean {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(mediaType.toLowerCase())
}

/** text/*, and the application types that are text (JSON, YAML, XML, scripts) */
export function isTextType(mediaType: string): boolean {
  const t = mediaType.toLowerCase().split(';')[0].trim()
  return t.startsWith('text/') || /^application\/(json|x-ndjson|xml|yaml|x-yaml|toml|javascript|x-javascript|typescript|x-sh|x-shellscript|sql|graphql|x-httpd-php)$/.test(t) || t.endsWith('+json') || t.endsWith('+xml')
}

/**
 * A file in a user message (part type `file`): an attachment, or a workspace file an `@path` mention named, read when
 * the message was sent. Images keep their bytes (`data`, base64); text files their text. `omitted` says why the
 * content is not there (too large, not text, not allowed to be read) — the model is told, the person sees it.
 */
export const FilePartData = lazy(() =>
  z.object({
    name: z.string(),
    mediaType: z.string(),
    size: z.number().int().nonnegative(),
    /** `attached`: pasted, dropped or sent by an editor; `mention`: an `@path` in the text */
    source: z.enum(['attached', 'mention']),
    /** workspace-relative, for a mention */
    path: z.string().optional(),
    data: z.string().optional(),
    text: z.string().optional(),
    omitted: z.string().optional(),
  })
)
export type FilePartData = z.infer<typeof FilePartData>

export const FILE_PART_TYPE = 'file'
