import type { BridgeCallName } from '../src-shared'

/**
 * IPC channel names shared by the preload and Electron main. Plain strings only, so both bundles can include this
 * file without pulling in anything else.
 */
export const CHANNEL_PREFIX = 'agentry:'
export const callChannel = (name: BridgeCallName): string => `${CHANNEL_PREFIX}${name}`
export const SUBSCRIBE_CHANNEL = 'agentry:subscribe'
export const UNSUBSCRIBE_CHANNEL = 'agentry:unsubscribe'
/** main → renderer: `(subscriptionId, SubscriptionMessage)` */
export const EVENT_CHANNEL = 'agentry:event'
/** main → renderer: an `AppCommand` from the native menu or dialogs. */
export const APP_COMMAND_CHANNEL = 'agentry:app-command'
/** renderer → main: open the OS folder dialog (File › Open Folder… from the page's folder menu); the result comes as an AppCommand. */
export const PICK_FOLDER_CHANNEL = 'agentry:pick-folder'
