import { create } from 'zustand'

/**
 * Which Settings section is shown (one at a time, chosen in its navigation). Remembered in localStorage, so a reload —
 * or coming back to Settings — opens the section last looked at.
 */
const KEY = 'agentry.settingsSection'

export const useSettingsNav = create<{ section: string | null }>(() => ({ section: readSection() }))

export function showSettingsSection(section: string): void {
  useSettingsNav.setState({ section })
  try {
    localStorage.setItem(KEY, section)
  } catch (err) {
    console.warn('[agentry] could not remember the Settings section:', err)
  }
}

function readSection(): string | null {
  if (typeof localStorage === 'undefined') return null
  try {
    return localStorage.getItem(KEY)
  } catch (err) {
    console.warn('[agentry] localStorage unavailable:', err)
    return null
  }
}
