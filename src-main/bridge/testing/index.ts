// Test support for the bridge (a HostApi held in memory): never imported by product code.
export { createMemoryHostApi } from './memory-host-api'
export type { MemoryHostApi } from './memory-host-api'
