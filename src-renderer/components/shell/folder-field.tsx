import { useEffect, useState } from 'react'
import { completeFolder, nativeFolderPicker } from '../../state/workspace-actions'

/**
 * The folder to open, as a path with completion: the folders under what is typed are offered as it is typed
 * (`~/pro` → `/home/me/projects/`), from the host's file system (the daemon may run on another machine than the
 * browser). The desktop app also has File › Open Folder… (the OS dialog).
 */
export function FolderField({ value, onChange, onEscape }: { value: string; onChange(v: string): void; onEscape(): void }) {
  const [folders, setFolders] = useState<string[]>([])
  useEffect(() => {
    if (!value.trim()) return setFolders([])
    let stale = false
    const t = setTimeout(() => {
      // A failed listing offers nothing: the field still takes any path typed.
      void completeFolder(value.trim()).then((found) => !stale && setFolders(found))
    }, 120)
    return () => {
      stale = true
      clearTimeout(t)
    }
  }, [value])
  return (
    <>
      <input
        autoFocus
        aria-label="Folder to open"
        className="input"
        data-testid="workspace-input"
        placeholder="/path/to/project or ~/project"
        list="workspace-folders"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onEscape()}
      />
      <datalist id="workspace-folders" data-testid="workspace-folders">
        {folders.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
    </>
  )
}

/** In the desktop app: the OS folder dialog (the folder it opens arrives as the app command File › Open Folder… sends). */
export function PickFolderButton({ onPicked }: { onPicked(): void }) {
  const pick = nativeFolderPicker()
  if (!pick) return null
  return (
    <button type="button" className="btn" data-testid="workspace-pick" onClick={() => void pick().then(onPicked)}>
      Choose…
    </button>
  )
}
