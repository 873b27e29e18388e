import { create } from 'zustand'
import type { ConnectionState } from '../../src-shared/bridge-protocol'

type ConnectionStore = {
  state: ConnectionState
  transport: 'ipc' | 'websocket' | null
  /** set when the bridge could not be created at all (no token in the URL, …) */
  fatal: string | null
}

export const useConnection = create<ConnectionStore>(() => ({ state: 'connecting', transport: null, fatal: null }))
