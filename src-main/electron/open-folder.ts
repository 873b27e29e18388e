import { dialog, type BrowserWindow } from 'electron'
import { dispatchCall } from '../bridge'
import type { HostApi } from '../../src-shared'
import type { AppCommand } from '../../src-preload/api'

/** File › Open Folder…: the native picker, then `workspaces.open`, then tell the page which folder is now open. */
export async function openFolder(win: BrowserWindow, api: HostApi, tell: (command: AppCommand) => void): Promise<void> {
  const picked = await dialog.showOpenDialog(win, { title: 'Open Folder', properties: ['openDirectory', 'createDirectory'] })
  const root = picked.filePaths[0]
  if (picked.canceled || !root) return
  const result = await dispatchCall(api, 'workspaces.open', { root })
  if (!result.ok) {
    await dialog.showMessageBox(win, { type: 'error', message: 'Could not open the folder', detail: result.error.message })
    return
  }
  tell({ type: 'workspace-opened', root: (result.data as { root: string }).root })
}
