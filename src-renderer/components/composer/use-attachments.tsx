import { useRef, useState, type DragEvent } from 'react'
import type { PromptAttachment } from '../../../src-shared'
import { readFiles, type Attached } from '../../state/attachments'
import type { UiError } from '../../state/ui-error'

let restoredId = 1_000_000

/**
 * The files of the message box: added by pasting (a screenshot), dropping on the box, or the paperclip button; each refused
 * one is said in the box's error line, by name. `picker` is the button with its hidden file input.
 */
export function useAttachments(onError: (e: UiError | null) => void) {
  const [files, setFiles] = useState<Attached[]>([])
  const [dropping, setDropping] = useState(false)
  // Reads finish out of order with the state: the list they are checked against is this ref, always current.
  const current = useRef<Attached[]>([])
  const input = useRef<HTMLInputElement>(null)
  const update = (next: Attached[]) => {
    current.current = next
    setFiles(next)
  }

  const add = async (list: File[]) => {
    if (!list.length) return
    const { attached, errors } = await readFiles(list, current.current)
    if (attached.length) update([...current.current, ...attached])
    onError(errors.length ? { context: 'Attaching files', message: errors.join(' '), hint: '' } : null)
  }

  const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files')
  const dropProps = {
    onDragOver: (e: DragEvent) => {
      if (!hasFiles(e)) return
      e.preventDefault()
      setDropping(true)
    },
    onDragLeave: () => setDropping(false),
    onDrop: (e: DragEvent) => {
      setDropping(false)
      if (!e.dataTransfer.files.length) return
      e.preventDefault()
      void add([...e.dataTransfer.files])
    },
  }

  const picker = (
    <>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attach-input"
        onChange={(e) => {
          void add([...(e.currentTarget.files ?? [])])
          e.currentTarget.value = ''
        }}
      />
      <button type="button" className="btn small attach-btn" data-testid="attach-button" aria-label="Attach images or text files" title="Attach images or text files (or paste, or drop them here)" onClick={() => input.current?.click()}>
        <svg width="15" height="15" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M21.44 11.05l-9.19 9.19a6 6 0 0 1-8.49-8.49l9.19-9.19a4 4 0 0 1 5.66 5.66l-9.2 9.19a2 2 0 0 1-2.83-2.83l8.49-8.48" />
        </svg>
      </button>
    </>
  )

  return {
    files,
    dropping,
    dropProps,
    picker,
    add,
    remove: (id: number) => update(current.current.filter((f) => f.id !== id)),
    clear: () => update([]),
    /** files handed back to the box (prompts a Stop took off the queue) */
    restore: (list: PromptAttachment[]) => update([...current.current, ...list.map((a) => ({ ...a, id: restoredId++, size: Math.floor((a.data.length * 3) / 4) }))]),
  }
}
