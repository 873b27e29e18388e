import { create } from 'zustand'
import type { ListedModel, ModelDetails, ModelRef } from '../../src-shared'
import { call } from './bridge'
import { toUiError, type UiError } from './ui-error'
import { upsertSession, useSessions } from './sessions-store'
import { useSettings } from './settings-store'
import { updateSettings } from './settings-actions'
import { notifyInfo } from './ui-store'
import { useTranscript } from './transcript-store'
import { useWorkspace } from './workspace-store'

export type ModelList = { state: 'loading' } | { state: 'ok'; models: ListedModel[]; note: string | null } | { state: 'error'; message: string }

type ModelsStore = {
  /** each provider's own model list, fetched when the picker first shows it */
  lists: Record<string, ModelList>
  /** the model a new session starts with, when the person picked one before sending (else the default) */
  nextSession: string | null
  /** context window and price per model ("provider/model") */
  details: Record<string, ModelDetails>
}

export const useModels = create<ModelsStore>(() => ({ lists: {}, nextSession: null, details: {} }))

export const formatRef = (ref: ModelRef | null | undefined): string | null => (ref ? `${ref.provider}/${ref.model}` : null)

/** Providers the picker offers: the configured ones, then the built-in offline demo. */
export function pickerProviders(): string[] {
  const names = (useSettings.getState().settings?.providers ?? []).map((p) => p.name)
  return names.includes('demo') ? names : [...names, 'demo']
}

export async function loadModels(provider: string, force = false): Promise<void> {
  const cur = useModels.getState().lists[provider]
  if (!force && cur && cur.state !== 'error') return
  useModels.setState((s) => ({ lists: { ...s.lists, [provider]: { state: 'loading' } } }))
  const res = await call('models.list', { provider, workspaceRoot: useWorkspace.getState().root ?? undefined })
  const next: ModelList = res.ok ? { state: 'ok', models: res.data.models, note: res.data.note } : { state: 'error', message: res.error.message }
  useModels.setState((s) => ({ lists: { ...s.lists, [provider]: next } }))
}

export async function loadModelDetails(model: string): Promise<void> {
  if (useModels.getState().details[model]) return
  const res = await call('models.info', { model, workspaceRoot: useWorkspace.getState().root ?? undefined })
  if (res.ok) useModels.setState((s) => ({ details: { ...s.details, [model]: res.data } }))
}

/** The model the next message runs on: the open session's, else the one picked for a new session, else the default. */
export function useCurrentModel(): string | null {
  const viewId = useTranscript((s) => s.viewId)
  const listed = useSessions((s) => (viewId ? formatRef(s.byId[viewId]?.model) : null))
  const fetched = useTranscript((s) => (viewId && s.viewSession?.id === viewId ? formatRef(s.viewSession.model) : null))
  const next = useModels((s) => s.nextSession)
  const fallback = useSettings((s) => s.settings?.defaultModel ?? null)
  if (viewId) return listed ?? fetched
  return next ?? fallback
}

/**
 * Picks a model: for the open session it changes the next turn there (the host stores it on the session); with no
 * session open, it is the model the new session starts with.
 */
export async function chooseModel(model: string): Promise<UiError | null> {
  const viewId = useTranscript.getState().viewId
  if (!viewId) useModels.setState({ nextSession: model })
  else {
    const res = await call('sessions.setModel', { sessionId: viewId, model })
    if (!res.ok) return toUiError('Switching the model', res.error)
    upsertSession(res.data.session, useWorkspace.getState().root)
    if (useTranscript.getState().viewSession?.id === viewId) useTranscript.setState({ viewSession: res.data.session })
  }
  return leaveTheDemo(model)
}

/**
 * The first real model picked while the default is still the offline demo becomes the default: otherwise the next
 * session went back to the demo and the welcome kept saying "offline demo". Said in a notice, with where to change it.
 */
async function leaveTheDemo(model: string): Promise<UiError | null> {
  const current = useSettings.getState().settings?.defaultModel
  if (!current?.startsWith('demo/') || model.startsWith('demo/')) return null
  const r = await updateSettings({ model }, 'Making it your default model')
  if (!r.ok) return r.error ?? toUiError('Making it your default model', { code: 'config_error', message: Object.values(r.fields).join('; ') })
  notifyInfo(`${model} is now your default model (it was the offline demo). Change it in Settings › Default model.`)
  return null
}

export type ModelChoice = { model: string; provider: string; label: string; detail: string | null; typed?: boolean }

/**
 * The picker's options for what was typed: every listed model whose name contains it (provider by provider), led by
 * the typed text itself when it is a `provider/model` not in the lists (free-text entry: any model a provider serves).
 */
export function modelChoices(query: string, lists: Record<string, ModelList>, providers: string[]): ModelChoice[] {
  const q = query.trim().toLowerCase()
  const out: ModelChoice[] = []
  for (const provider of providers) {
    const list = lists[provider]
    if (list?.state !== 'ok') continue
    for (const m of list.models) {
      const model = `${provider}/${m.id}`
      if (q && !model.toLowerCase().includes(q) && !(m.name ?? '').toLowerCase().includes(q)) continue
      out.push({ model, provider, label: m.id, detail: m.name })
    }
  }
  const typed = query.trim()
  if (/^[^/\s]+\/\S+$/.test(typed) && !out.some((c) => c.model === typed)) {
    out.unshift({ model: typed, provider: typed.slice(0, typed.indexOf('/')), label: typed, detail: 'use this name', typed: true })
  }
  return out
}
