import fs from 'node:fs'
import path from 'node:path'
import { FILE_PART_TYPE, FilePartData, isImageType, isTextType, type MessageWithParts, type PromptAttachment } from '../../src-shared'
import { ATTACHMENT_IMAGE_MAX_BYTES, MENTION_MAX_BYTES } from '../../src-shared/limits'
import { errnoText } from '../files'
import { decide } from '../permissions'
import { looksBinary, resolveWorkspacePath } from '../tools'
import type { StaticLayers } from '../trust'

const IMAGE_EXTENSIONS: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' }
const MENTION_MAX_FILES = 10

/** Files a prompt carries as its message's `file` parts: what was attached, then what its `@path` mentions name. */
export function promptFiles(text: string, attachments: PromptAttachment[] | undefined, workspaceRoot: string, rules: StaticLayers): FilePartData[] {
  const attached = (attachments ?? []).map(attachedFile)
  return [...attached, ...mentionedFiles(text, workspaceRoot, rules)]
}

/** The files a sent message carried as attachments, as they were sent (an edit sends them again with the new text). */
export function attachedFiles(message: MessageWithParts): PromptAttachment[] {
  return message.parts.flatMap((p) => {
    if (p.type !== FILE_PART_TYPE) return []
    const f = FilePartData.safeParse(p.data)
    if (!f.success || f.data.source !== 'attached') return []
    const data = f.data.data ?? (f.data.text !== undefined ? Buffer.from(f.data.text, 'utf8').toString('base64') : undefined)
    return data === undefined ? [] : [{ name: f.data.name, mediaType: f.data.mediaType, data }]
  })
}

function attachedFile(a: PromptAttachment): FilePartData {
  const size = Buffer.byteLength(a.data, 'base64')
  if (isImageType(a.mediaType)) return { name: a.name, mediaType: a.mediaType.toLowerCase(), size, source: 'attached', data: a.data }
  return { name: a.name, mediaType: a.mediaType, size, source: 'attached', text: Buffer.from(a.data, 'base64').toString('utf8') }
}

/**
 * `@path` and `@"path with spaces"` tokens that name a file of the workspace. A token that names nothing (an agent
 * such as `@reviewer`, an e-mail address, a decorator) is left alone: it is only text. Trailing punctuation of a
 * sentence (`see @src/a.ts.`) is not part of the path.
 */
export function mentionedPaths(text: string): string[] {
  const found: string[] = []
  for (const m of text.matchAll(/(?:^|[\s(])@(?:"([^"\n]+)"|([^\s"'`()<>]+))/g)) {
    const raw = m[1] ?? m[2]
    if (raw && !found.includes(raw)) found.push(raw)
  }
  return found
}

function mentionedFiles(text: string, workspaceRoot: string, rules: StaticLayers): FilePartData[] {
  if (!text.includes('@')) return []
  const out: FilePartData[] = []
  const seen = new Set<string>()
  for (const raw of mentionedPaths(text)) {
    if (out.length >= MENTION_MAX_FILES) break
    const file = existingFile(workspaceRoot, raw) ?? existingFile(workspaceRoot, raw.replace(/[.,;:!?]+$/, ''))
    if (!file || seen.has(file.rel)) continue
    seen.add(file.rel)
    out.push(readMentioned(file, rules))
  }
  return out
}

function existingFile(workspaceRoot: string, raw: string): { abs: string; rel: string; size: number } | undefined {
  if (!raw || raw.includes('\0')) return undefined
  const r = resolveWorkspacePath(workspaceRoot, raw)
  // A mention reaches only into the workspace: a path outside it is text, as in any other message.
  if (r.outside || r.rel === '.') return undefined
  const stat = fs.statSync(r.abs, { throwIfNoEntry: false })
  return stat?.isFile() ? { abs: r.abs, rel: r.rel, size: stat.size } : undefined
}

/** A mentioned file's content, unless the person's rules deny reading it or it is too large or not text. */
function readMentioned(file: { abs: string; rel: string; size: number }, rules: StaticLayers): FilePartData {
  const ext = path.extname(file.rel).toLowerCase()
  const image = IMAGE_EXTENSIONS[ext]
  const base = { name: path.basename(file.rel), size: file.size, source: 'mention' as const, path: file.rel }
  const mediaType = image ?? 'text/plain'
  // The person named the file, which is their say-so to read it, but their deny rules still hold (a secret stays out).
  const verdict = decide([{ agent: [], static: rules.static, workspace: rules.workspace, runtime: [] }], { tool: 'read_file', kind: 'path', subjects: [file.rel], access: 'read' })
  if (verdict.action === 'deny') return { ...base, mediaType, omitted: 'permission rules deny reading it' }
  const limit = image ? ATTACHMENT_IMAGE_MAX_BYTES : MENTION_MAX_BYTES
  if (file.size > limit) return { ...base, mediaType, omitted: `it is ${formatBytes(file.size)}, more than the ${formatBytes(limit)} a mention attaches; the agent can read it with its tools` }
  let bytes: Buffer
  try {
    bytes = fs.readFileSync(file.abs)
  } catch (err) {
    return { ...base, mediaType, omitted: `it could not be read (${errnoText(err)})` }
  }
  if (image) return { ...base, mediaType, data: bytes.toString('base64') }
  if (looksBinary(bytes.subarray(0, 8192))) return { ...base, mediaType: 'application/octet-stream', omitted: 'it is not a text file' }
  return { ...base, mediaType: isTextType(mediaType) ? mediaType : 'text/plain', text: bytes.toString('utf8') }
}

export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`
  if (n < 1_000_000) return `${Math.round(n / 1000)} KB`
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')} MB`
}
