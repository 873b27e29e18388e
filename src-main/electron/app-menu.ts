import type { MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  openFolder(): void
}

/** File › Open Folder…, Edit, View (reload, devtools), Window — the menu a desktop user expects. */
export function appMenuTemplate(actions: MenuActions, platform: NodeJS.Platform = process.platform): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin'
  const menu: MenuItemConstructorOptions[] = []
  if (isMac) menu.push({ role: 'appMenu' })
  menu.push(
    {
      label: 'File',
      submenu: [
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'forceReload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  )
  return menu
}
