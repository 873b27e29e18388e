export { ModelAuthError, ModelConfigError, ModelStreamError } from './errors'
export { createFileKeyStore, type KeyStore } from './key-store'
export { parseModelRef, formatModelRef, defaultModelRef, DEMO_MODEL_REF } from './model-ref'
export { resolveModel, SCRIPT_ENV, type ResolveContext } from './resolve-model'
export { lookupApiKey, keyRequired, type ApiKeyLookup } from './api-key'
export { streamWithRetry, type RetryHooks } from './stream-with-retry'
export { acceptsToolResultImages, pricingFor, contextWindowFor, DEFAULT_CONTEXT_WINDOW } from './model-info'
export { resetScriptState } from './script-model'
export { parseScript, loadScript, type ScriptFile, type ScriptReply } from './script-format'
export { DEMO_LABEL } from './demo-replies'
export {
  startScriptedChatServer,
  type ChatServerScript,
  type ScriptedChatResponse,
  type ScriptedChatServer,
} from './scripted-chat-server'
