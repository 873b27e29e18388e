// Test support for models: never imported by product code (lint enforces it).
export { startScriptedChatServer, type ChatServerScript, type ScriptedChatResponse, type ScriptedChatServer } from './scripted-chat-server'
export { resetScriptState } from '../script-model'
export { startScriptedAnthropicServer, type AnthropicReply, type AnthropicRequest, type ScriptedAnthropicServer } from './scripted-anthropic-server'
