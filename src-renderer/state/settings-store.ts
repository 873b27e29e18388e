import { create } from 'zustand'
import type { CallOutput, RuntimeRule } from '../../src-shared'
import type { UiError } from './bridge'

type SettingsStore = {
  settings: CallOutput<'settings.get'> | null
  rules: RuntimeRule[]
  loadError: UiError | null
}

export const useSettings = create<SettingsStore>(() => ({ settings: null, rules: [], loadError: null }))
