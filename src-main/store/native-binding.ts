/**
 * better-sqlite3 is a native module built for one ABI (Node's for `npm test`, Electron's for the app). When the
 * wrong build is loaded the raw error is a wall of text; this turns it into what happened and what to run.
 */
export const SQLITE_BINDING_ENV = 'AGENTRY_SQLITE_BINDING'

export function explainNativeModuleError(err: unknown, runtime: { electron?: string; modules: string }): string | undefined {
  const message = err instanceof Error ? err.message : String(err)
  const m = /NODE_MODULE_VERSION (\d+)[\s\S]*?NODE_MODULE_VERSION (\d+)/.exec(message)
  if (!m) return undefined
  const [, builtFor, needed] = m
  const where = runtime.electron ? `Electron ${runtime.electron}` : 'this Node.js'
  return (
    `better-sqlite3 was built for ABI ${builtFor} (NODE_MODULE_VERSION ${builtFor}), but ${where} needs ABI ${needed}. ` +
    (runtime.electron
      ? `Start the app with "npm start", which builds an Electron copy into out/native/electron and points ${SQLITE_BINDING_ENV} at it.`
      : `Run "npm rebuild better-sqlite3" to rebuild it for Node, and unset ${SQLITE_BINDING_ENV} if it points at an Electron build.`)
  )
}

/** Options for `new Database()`: the Electron build of the native module when the desktop app set one. */
export function nativeBindingOptions(env: NodeJS.ProcessEnv = process.env): { nativeBinding?: string } {
  const binding = env[SQLITE_BINDING_ENV]
  return binding ? { nativeBinding: binding } : {}
}
