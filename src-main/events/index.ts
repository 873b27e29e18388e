export { EventHub } from './hub'
export type { SnapshotSource } from './hub'
