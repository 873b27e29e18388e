import { create } from 'zustand'
import type { ConnectionState } from '../../src-shared/bridge-protocol'
import type { UiError } from './ui-error'

type ConnectionStore = {
  state: ConnectionState
  transport: 'ipc' | 'websocket' | null
  /** set when the bridge could not be created at all (no token in the URL, …) */
  fatal: string | null
}

export const useConnection = create<ConnectionStore>(() => ({ state: 'connecting', transport: null, fatal: null }))

/** Why a message cannot be sent now, for the message box (the text stays there). */
export function notConnected(state: ConnectionState): UiError {
  const why = state === 'refused' ? 'The Agentry host refused this page (it restarted with a new token).' : state === 'closed' ? 'The Agentry host has stopped.' : 'Not connected to the Agentry host right now.'
  const hint = state === 'refused' ? 'Open the address the host printed when it started.' : state === 'closed' ? 'Start it again (npm run serve or the app), then reload.' : 'It reconnects by itself; send again once the header says Connected.'
  return { context: 'Sending the message', message: `${why} Your message is kept in the box.`, hint }
}
