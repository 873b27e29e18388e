import { create } from 'zustand'
import type { CallOutput, RuntimeRule } from '../../src-shared'
import type { UiError } from './bridge'

type SettingsStore = {
  settings: CallOutput<'settings.get'> | null
  rules: RuntimeRule[]
  loadError: UiError | null
  /** counts loads from disk: forms start again from the loaded values (Refresh, after a save) */
  version: number
}

export const useSettings = create<SettingsStore>(() => ({ settings: null, rules: [], loadError: null, version: 0 }))
