/** Cmd on macOS, Ctrl elsewhere: the modifier of app shortcuts (Ctrl/Cmd+K, Ctrl/Cmd+N). */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

export function modKey(e: { metaKey: boolean; ctrlKey: boolean }): boolean {
  return isMac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey
}

export function shortcut(key: string): string {
  return isMac ? `⌘${key}` : `Ctrl+${key}`
}

/**
 * New session: Ctrl/Cmd+N in the desktop app. A browser keeps Ctrl/Cmd+N for a new window and never hands it to the
 * page, so in a browser tab it is Alt+N (⌥N on macOS), and that is what the palette advertises there.
 */
export function newSessionShortcut(inBrowser: boolean): string {
  if (!inBrowser) return shortcut('N')
  return isMac ? '⌥N' : 'Alt+N'
}

/** Alt+N (⌥N types a character on macOS, so the physical key is read). */
export function isAltN(e: { altKey: boolean; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; code: string }): boolean {
  return e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.code === 'KeyN'
}
