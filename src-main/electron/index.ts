// The Electron entry is main.ts (bundled by electron-vite). This index exposes only the parts that do not import
// Electron, so they can be used and tested from Node.
export { createSafeStorageKeyStore, SAFE_KEYS_FILE } from './safe-storage-key-store'
export type { SafeStorageLike } from './safe-storage-key-store'
export { explainNativeModuleError, SQLITE_BINDING_ENV } from '../store'
export { watchForNotifications } from './notifications'
export type { NotificationText } from './notifications'
export { isAppUrl, isTrustedSender, isExternalLink, APP_URL } from './app-origin'
export { registerIpcBridge } from './ipc-bridge'
export type { IpcMainLike, IpcEventLike, WebContentsLike } from './ipc-bridge'
