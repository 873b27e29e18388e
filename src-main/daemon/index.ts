export { startDaemon, BRIDGE_PATH } from './start-daemon'
export type { Daemon, DaemonOptions } from './start-daemon'
