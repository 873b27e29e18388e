import { create } from 'zustand'

/** Light, dark, or as the OS says. A choice of this window's person, kept in this browser/app (like the sidebar). */
export type Theme = 'system' | 'light' | 'dark'

const KEY = 'agentry.theme'

function stored(): Theme {
  if (typeof localStorage === 'undefined') return 'system'
  try {
    const v = localStorage.getItem(KEY)
    return v === 'light' || v === 'dark' ? v : 'system'
  } catch (err) {
    // Storage refused (a locked-down profile): the OS decides, as before there was a choice.
    console.warn('[agentry] localStorage unavailable:', err)
    return 'system'
  }
}

export const useTheme = create<{ theme: Theme }>(() => ({ theme: stored() }))

/** Every colour follows `color-scheme` (light-dark() in app.css): one attribute on the root switches them all. */
export function applyTheme(theme: Theme = useTheme.getState().theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme
  else document.documentElement.dataset.theme = theme
}

export function setTheme(theme: Theme): void {
  useTheme.setState({ theme })
  applyTheme(theme)
  try {
    if (theme === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, theme)
  } catch (err) {
    // Applied for now; it just will not survive a reload. Say why in the console rather than nowhere.
    console.warn('[agentry] the theme could not be saved:', err)
  }
}
