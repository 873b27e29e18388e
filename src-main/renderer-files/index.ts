// The built renderer's files, for both places that serve them: the daemon over HTTP and the Electron shell at app://.
export { resolveStatic, sendFile } from './static-files'
export type { StaticTarget } from './static-files'
