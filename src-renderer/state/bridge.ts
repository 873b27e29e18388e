import type { BridgeCallName, CallInput, CallOutput, CallResult } from '../../src-shared'
import type { BridgeClient } from '../../src-shared/bridge-client'

/**
 * The renderer's handle on the host, set once at startup (main.tsx). `state/` reaches the host through `call` and
 * `getBridge`; components reach it only through `state/` (lint enforces it: see eslint.config.js).
 */
let client: BridgeClient | null = null

export function setBridge(c: BridgeClient): void {
  client = c
}

export function getBridge(): BridgeClient {
  if (!client) throw new Error('bridge client not set: main.tsx must call setBridge() before rendering')
  return client
}

/** Never rejects: a transport failure (socket closed mid-call) comes back as an `unavailable` error, shown in place. */
export function call<N extends BridgeCallName>(name: N, input: CallInput<N>): Promise<CallResult<CallOutput<N>>> {
  return getBridge().call(name, input)
}
