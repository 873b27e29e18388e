// What Settings asks of the host besides loading it (`loadSettings`): each change, then Settings reloaded so that
// every section shows what the host now has.
import type { CallInput, CallOutput, CallResult, McpAction } from '../../src-shared'
import type { BudgetDraft, FieldErrors, ProviderDraft } from '../../src-shared/settings-fields'
import { call } from './bridge'
import { fieldErrorsOf, toUiError, toUiResult, type UiError, type UiResult } from './ui-error'
import { loadSettings } from './workspace-actions'

/** A change the host may refuse field by field (`config_error` with `data.fields`): those go under the fields. */
export type SaveOutcome = { ok: true } | { ok: false; fields: FieldErrors; error: UiError | null }

async function saved(context: string, r: CallResult<unknown>): Promise<SaveOutcome> {
  if (!r.ok) {
    const fields = fieldErrorsOf(r.error)
    return { ok: false, fields, error: Object.keys(fields).length === 0 ? toUiError(context, r.error) : null }
  }
  await loadSettings()
  return { ok: true }
}

/** A change refused as a whole, if at all. */
async function changed(context: string, r: CallResult<unknown>): Promise<UiError | null> {
  if (!r.ok) return toUiError(context, r.error)
  await loadSettings()
  return null
}

/** `doing` names the change in an error ("Saving the default model"). */
export async function updateSettings(patch: CallInput<'settings.update'>, doing: string): Promise<SaveOutcome> {
  return saved(doing, await call('settings.update', patch))
}

export async function setSandboxEnabled(enabled: boolean): Promise<UiError | null> {
  return changed('Saving the sandbox setting', await call('settings.update', { sandbox: { enabled } }))
}

export async function setReadOnlyAutoAllow(readOnlyAutoAllow: boolean): Promise<UiError | null> {
  return changed('Saving the read-only commands setting', await call('settings.update', { sandbox: { readOnlyAutoAllow } }))
}

export async function revokeRule(ruleId: string): Promise<UiError | null> {
  return changed('Revoking the rule', await call('rules.revoke', { ruleId }))
}

export async function saveProvider(draft: ProviderDraft, adding: boolean): Promise<SaveOutcome> {
  return saved(adding ? 'Adding the provider' : `Saving ${draft.name}`, await call('providers.save', { draft, adding }))
}

/** Asks the provider for its model list: a saved one by name, or what is typed in its form (`draft`). */
export async function testProvider(provider: string, draft?: ProviderDraft): Promise<UiResult<CallOutput<'providers.test'>>> {
  return toUiResult(`Testing ${draft ? 'the provider' : provider}`, await call('providers.test', { provider, draft }))
}

export async function setProviderKey(provider: string, key: string): Promise<UiError | null> {
  return changed(`Saving the key for ${provider}`, await call('providers.setKey', { provider, key }))
}

export async function removeProviderKey(provider: string): Promise<UiError | null> {
  return changed(`Removing the key for ${provider}`, await call('providers.removeKey', { provider }))
}

export async function removeProvider(provider: string): Promise<UiError | null> {
  return changed(`Removing ${provider}`, await call('providers.remove', { provider }))
}

export async function loadTrust(workspaceRoot: string): Promise<UiResult<CallOutput<'trust.get'>>> {
  return toUiResult('Loading the workspace trust', await call('trust.get', { workspaceRoot }))
}

/** Trusting names the files as shown (path and hash): if one changed meanwhile, the host refuses. */
export async function setWorkspaceTrust(workspaceRoot: string, trusted: boolean, files: CallInput<'trust.set'>['files']): Promise<UiResult<CallOutput<'trust.set'>>> {
  return toUiResult(trusted ? 'Trusting the workspace' : 'Revoking trust', await call('trust.set', { workspaceRoot, trusted, ...(trusted ? { files } : {}) }))
}

/** Settings › Skills: the skills found for a workspace (issue 27). */
export async function loadSkillsList(workspaceRoot: string): Promise<UiResult<CallOutput<'skills.list'>>> {
  return toUiResult('Loading the skills', await call('skills.list', { workspaceRoot }))
}

/** Settings › Commands: the slash commands of a workspace (issue 27), the files that failed, what waits for trust. */
export async function loadCommandsList(workspaceRoot: string): Promise<UiResult<CallOutput<'commands.list'>>> {
  return toUiResult('Loading the commands', await call('commands.list', { workspaceRoot }))
}

/** Settings › Hooks: the Claude Code hooks read for this workspace, with their source and problems. */
export async function loadHooksList(workspaceRoot: string): Promise<UiResult<CallOutput<'hooks.list'>>> {
  return toUiResult('Loading the hooks', await call('hooks.list', { workspaceRoot }))
}

export async function loadMcpServers(workspaceRoot: string): Promise<UiResult<CallOutput<'mcp.list'>>> {
  return toUiResult('Loading the MCP servers', await call('mcp.list', { workspaceRoot }))
}

export async function controlMcpServer(workspaceRoot: string, name: string, action: McpAction): Promise<UiError | null> {
  const r = await call('mcp.control', { workspaceRoot, name, action })
  return r.ok ? null : toUiError(`${action[0].toUpperCase()}${action.slice(1)} ${name}`, r.error)
}

type Budgets = CallOutput<'settings.budgets'>

export async function loadBudgets(): Promise<UiResult<Budgets>> {
  return toUiResult('Loading the budgets', await call('settings.budgets', {}))
}

/** Saves the settings in `set` (an empty text removes one); the host's refusals come back by setting, under each field. */
export async function saveBudgets(set: BudgetDraft): Promise<{ ok: true; data: Budgets } | { ok: false; fields: FieldErrors; error: UiError | null }> {
  const r = await call('settings.budgets', { set })
  if (r.ok) return r
  const fields = fieldErrorsOf(r.error)
  return { ok: false, fields, error: Object.keys(fields).length === 0 ? toUiError('Saving the budgets', r.error) : null }
}

/** Settings › Sandbox & trust: the container engine children with isolation: container run on (issue 29). */
export async function loadContainerStatus(): Promise<UiResult<CallOutput<'containers.status'>>> {
  return toUiResult('Checking the container engine', await call('containers.status', {}))
}
