import { create } from 'zustand'
import type { CallOutput, ListedRule } from '../../src-shared'
import type { UiError } from './ui-error'

type SettingsStore = {
  settings: CallOutput<'settings.get'> | null
  /** the workspace's grants, and those of its conversations (session and run scope) */
  rules: ListedRule[]
  loadError: UiError | null
  /** counts reseeding loads (opening Settings, Refresh): the forms start again from the loaded values */
  version: number
}

export const useSettings = create<SettingsStore>(() => ({ settings: null, rules: [], loadError: null, version: 0 }))
