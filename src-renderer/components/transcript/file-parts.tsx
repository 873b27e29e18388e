import { useState } from 'react'
import { FILE_PART_TYPE, FilePartData, isImageType, type PartRecord } from '../../../src-shared'
import { formatSize } from '../../state/attachments'

/**
 * The files a person's message carried: images as thumbnails (click for full size), text files and `@path`
 * mentions as chips that open to the text the model read; a file that was not attached says why.
 */
export function FileParts({ parts }: { parts: PartRecord[] }) {
  const files = parts.flatMap((p) => {
    if (p.type !== FILE_PART_TYPE) return []
    const parsed = FilePartData.safeParse(p.data)
    return parsed.success ? [{ id: p.id, file: parsed.data }] : []
  })
  if (!files.length) return null
  return (
    <div className="message-files" data-testid="message-files">
      {files.map(({ id, file }) => (
        <FileChip key={id} file={file} />
      ))}
    </div>
  )
}

function FileChip({ file }: { file: FilePartData }) {
  const [open, setOpen] = useState(false)
  const label = file.path ? `@${file.path}` : file.name
  if (file.omitted) {
    return (
      <span className="message-file omitted" data-testid="message-file" title={`Not attached: ${file.omitted}`}>
        <span className="mono">{label}</span> <span className="muted small">not attached: {file.omitted}</span>
      </span>
    )
  }
  if (file.data && isImageType(file.mediaType)) {
    const src = `data:${file.mediaType};base64,${file.data}`
    return (
      <button type="button" className={`message-image ${open ? 'open' : ''}`} data-testid="message-image" aria-label={`${label}, ${open ? 'shrink' : 'show full size'}`} aria-expanded={open} onClick={() => setOpen(!open)}>
        <img src={src} alt={label} />
      </button>
    )
  }
  const lines = file.text ? file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0) : 0
  return (
    <span className="message-file" data-testid="message-file">
      <button type="button" className="btn small" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="mono">{label}</span> <span className="muted small">{lines.toLocaleString('en-US')} {lines === 1 ? 'line' : 'lines'} · {formatSize(file.size)}</span>
      </button>
      {open && <pre className="message-file-text" data-testid="message-file-text">{file.text}</pre>}
    </span>
  )
}
