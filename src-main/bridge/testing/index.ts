// Test support for the bridge (in-memory transport pair, a HostApi held in memory): never imported by product code.
export { createConnectionPair } from './memory-connection'
export type { MemoryConnection } from './memory-connection'
export { createMemoryHostApi } from './memory-host-api'
export type { MemoryHostApi } from './memory-host-api'
