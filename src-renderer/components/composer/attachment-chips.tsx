import { isImageType } from '../../../src-shared'
import { formatSize, type Attached } from '../../state/attachments'
import { useEffect } from 'react'
import { loadModelDetails, useCurrentModel, useModels } from '../../state/models-store'

/**
 * The files in the message box, one chip each (a thumbnail for an image), × to drop one; and, when the model the
 * message goes to does not take images, a line that says so before it is sent.
 */
export function AttachmentChips({ files, onRemove }: { files: Attached[]; onRemove: (id: number) => void }) {
  const model = useCurrentModel()
  const blind = useModels((s) => (model ? s.details[model]?.images === false : false))
  const images = files.some((f) => isImageType(f.mediaType))
  useEffect(() => {
    if (images && model) void loadModelDetails(model)
  }, [images, model])
  if (!files.length) return null
  return (
    <div className="attachment-chips" data-testid="attachment-chips">
      {files.map((f) => (
        <span key={f.id} className="attachment-chip" data-testid="attachment-chip" title={`${f.name} · ${formatSize(f.size)}`}>
          {isImageType(f.mediaType) ? <img className="attachment-thumb" src={`data:${f.mediaType};base64,${f.data}`} alt="" /> : <span className="attachment-icon" aria-hidden="true">TXT</span>}
          <span className="attachment-name">{f.name}</span>
          <span className="muted small">{formatSize(f.size)}</span>
          <button type="button" className="btn small" data-testid="attachment-remove" aria-label={`Remove ${f.name}`} onClick={() => onRemove(f.id)}>
            ×
          </button>
        </span>
      ))}
      {images && blind && (
        <span className="attachment-note muted small" data-testid="attachment-no-images">
          {model} does not take images: it is told their names only. Pick a model that does, or mark this one with <code>images: true</code> in config.yaml.
        </span>
      )}
    </div>
  )
}
