export { createHost } from './create-host'
export type { Host, HostOptions } from './create-host'
export { HostLockError } from './lock'
export { RESTART_REASON } from './reconcile'
