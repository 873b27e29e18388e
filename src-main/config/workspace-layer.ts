import { isPlainObject } from '../../src-shared'

/** Which of the person's keys a provider may be given (see limitWorkspaceProviders). */
export interface KeyLimit {
  /** the key saved in the app's key store under this provider's name */
  store: boolean
  /** the type's default env var (ANTHROPIC_API_KEY, OPENAI_API_KEY) */
  defaultEnv: boolean
  /** why keys are withheld, for the "no API key" error and Settings */
  reason: string
}

/** What a workspace's config.yaml did to one provider. */
export interface WorkspaceProvider {
  file: string
  /** the person's config defines the same name (else the workspace added it) */
  redefined: boolean
  /** type or baseURL differ from the person's entry (or the workspace added a provider) */
  newDestination: boolean
  /** the keys it may not receive; absent when it may receive everything the person's entry would */
  limit?: KeyLimit
}

export interface WorkspaceLimits {
  /** the workspace layer with what it may not do removed */
  clean: Record<string, unknown>
  problems: { path: string; reason: string }[]
  providers: Record<string, WorkspaceProvider>
}

const OFFICIAL: Record<string, string> = {
  anthropic: 'https://api.anthropic.com/v1',
  openai: 'https://api.openai.com/v1',
  ollama: 'http://127.0.0.1:11434',
}

/**
 * Keys go only where the person sent them. A provider that a workspace's `.agents/config.yaml` defines or
 * redefines may not name an env var as its key (`apiKeyEnv`: refused, reported), and when it points somewhere the
 * person's own entry does not (another type or baseURL, or a new provider) it gets neither the stored key nor the
 * type's default env var — except that a provider at its type's official endpoint may use the default env var,
 * since that is where the key belongs. A provider the workspace only tunes (same type and URL) keeps the person's
 * key settings. A trusted workspace is treated like the person's own file.
 */
export function limitWorkspaceProviders(person: Record<string, unknown>, workspace: Record<string, unknown>, o: { file: string; trusted: boolean }): WorkspaceLimits {
  const clean = structuredClone(workspace)
  const problems: WorkspaceLimits['problems'] = []
  const providers: Record<string, WorkspaceProvider> = {}
  const wsProviders = isPlainObject(clean.providers) ? clean.providers : {}
  const personProviders = isPlainObject(person.providers) ? person.providers : {}
  for (const [name, entry] of Object.entries(wsProviders)) {
    if (!isPlainObject(entry)) continue
    const mine = isPlainObject(personProviders[name]) ? personProviders[name] : undefined
    const newDestination = !mine || destination(mine) !== destination(entry)
    providers[name] = { file: o.file, redefined: mine !== undefined, newDestination }
    if (o.trusted) continue
    if (entry.apiKeyEnv !== undefined) {
      problems.push({
        path: `providers.${name}.apiKeyEnv`,
        reason: `a workspace file cannot name an environment variable as a key (${String(entry.apiKeyEnv)}); it was ignored. If you trust this workspace, run "agentry trust" in it (or trust it in Settings); otherwise remove the line`,
      })
      delete entry.apiKeyEnv
    }
    if (!newDestination && mine) {
      // Same endpoint: the person's own key settings still apply (the overlay replaced the entry whole).
      if (mine.apiKeyEnv !== undefined) entry.apiKeyEnv = mine.apiKeyEnv
      if (mine.apiKey !== undefined && entry.apiKey === undefined) entry.apiKey = mine.apiKey
      continue
    }
    const official = typeof entry.type === 'string' && OFFICIAL[entry.type] !== undefined && destination(entry) === destination({ type: entry.type })
    const what = mine ? 'changed where this provider sends requests' : 'defines this provider'
    providers[name].limit = {
      store: false,
      defaultEnv: official,
      reason: `${o.file} ${what}, so your stored key${official ? '' : ' and environment keys'} are not sent to it. Trust the workspace ("agentry trust" or Settings) if that is intended, or remove providers.${name} from that file`,
    }
  }
  return { clean, problems, providers }
}

/** type + normalized endpoint: two entries with the same destination send a key to the same place. */
function destination(entry: Record<string, unknown>): string {
  const type = String(entry.type)
  const url = typeof entry.baseURL === 'string' ? entry.baseURL : (OFFICIAL[type] ?? '')
  return `${type} ${normalizeUrl(url)}`
}

function normalizeUrl(url: string): string {
  let u: URL
  try {
    u = new URL(url)
  } catch (err) {
    // Invalid URLs were already dropped by validation; compare whatever remains literally.
    if (err instanceof TypeError) return url
    throw err
  }
  return u.href.replace(/\/+$/, '')
}
