import { create } from 'zustand'
import type { UiError } from './ui-error'

type WorkspaceStore = {
  root: string | null
  defaultRoot: string | null
  recent: { root: string; lastOpenedAt: number }[]
  error: UiError | null
}

export const useWorkspace = create<WorkspaceStore>(() => ({ root: null, defaultRoot: null, recent: [], error: null }))
