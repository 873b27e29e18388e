export { serveAcp } from './acp-server'
export type { AcpServer, AcpServerOptions } from './acp-server'
export type { HostHandle } from './host-link'
