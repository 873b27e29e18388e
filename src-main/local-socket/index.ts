export { serveLocalSocket } from './serve-local-socket'
export type { LocalSocketServer } from './serve-local-socket'
export { connectLocalSocket } from './connect-local-socket'
export { localSocketPath } from './socket-path'
