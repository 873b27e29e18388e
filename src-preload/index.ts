import { contextBridge, ipcRenderer } from 'electron'
import { createPreloadApi } from './api'

// Sandboxed preload: only `electron` may be required at runtime; everything else is bundled in.
contextBridge.exposeInMainWorld('agentry', createPreloadApi(ipcRenderer))

export type { AgentryApi, AppCommand } from './api'
