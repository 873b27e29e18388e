/** Cmd on macOS, Ctrl elsewhere: the modifier of app shortcuts (Ctrl/Cmd+K, Ctrl/Cmd+N). */
export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform)

export function modKey(e: { metaKey: boolean; ctrlKey: boolean }): boolean {
  return isMac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey
}

export function shortcut(key: string): string {
  return isMac ? `⌘${key}` : `Ctrl+${key}`
}
