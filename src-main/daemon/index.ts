export { startDaemon, BRIDGE_PATH } from './start-daemon'
export type { Daemon, DaemonOptions } from './start-daemon'
/** Also used by the Electron shell to serve the same build at app://. */
export { resolveStatic } from './static-files'
export type { StaticTarget } from './static-files'
