import fs from 'node:fs'
import path from 'node:path'
import type { AgentInfo, Config, ModelRef, SandboxState } from '../../src-shared'
import { AgentRegistry, resolveAgentModel } from '../agents'
import { Approvals } from '../approvals'
import type { LoadedConfig } from '../config'
import { EventHub } from '../events'
import { McpPool } from '../mcp'
import { contextWindowFor, createFileKeyStore, pricingFor, resolveModel, type KeyStore } from '../models'
import { ensureDefaultPermissionsFile, loadShellGrammar, protectedWriteReason, type Ruleset } from '../permissions'
import { networkAllowed, Runtime } from '../runtime'
import { detectSandbox, sandboxState } from '../sandbox'
import { emitterFor, SessionRunner } from '../sessions'
import { openStore, type Store } from '../store'
import { Subagents } from '../subagents'
import type { StaticLayers } from '../trust'
import type { HostApi } from './api'
import { createCalls } from './calls'
import { startAutoArchive } from './auto-archive'
import { acquireDataDirLock } from './lock'
import { reconcileAfterRestart, type ReconcileReport } from './reconcile'
import { snapshotFor } from './snapshot'
import { Workspaces } from './workspaces'
import { createSettingsSource } from './workspace-settings'

export interface HostOptions {
  dataDir: string
  /** the folder a new session opens in when none is given (CLI cwd, daemon start dir) */
  defaultWorkspace?: string
  /** no one can answer approvals: ask = deny unless a grant allows it (CLI) */
  headless?: boolean
  /** headless grants: `--yes` (every ask) and `--allow PATTERN` rules */
  grants?: { yes: boolean; rules: Ruleset }
  keys?: KeyStore
  env?: NodeJS.ProcessEnv
  /** take the single-writer lock on the data dir (default true) */
  lock?: boolean
  /** backoff base for provider retries (tests make it tiny) */
  retryDelayMs?: number
}

export interface Host {
  readonly dataDir: string
  readonly api: HostApi
  readonly store: Store
  readonly runner: SessionRunner
  readonly subagents: Subagents
  readonly registry: AgentRegistry
  readonly approvals: Approvals
  readonly hub: EventHub
  /** the workspaces' MCP servers (started on first need, stopped with the host) */
  readonly mcp: McpPool
  readonly reconcileReport: ReconcileReport
  config(workdir?: string): LoadedConfig
  /** the static rules of a workspace as trust layers them, with every rules file that could not be used */
  staticRules(workdir: string): StaticLayers
  agents(workdir: string): AgentInfo[]
  /** how bash commands in `workdir` run: sandbox kind (or why none) and whether `network` rules open the network */
  sandboxStatus(workdir: string): Promise<SandboxState>
  stop(): Promise<void>
}

/** Composes store, runtime, subagents, sessions and the bridge API. Restart recovery runs before anything else. */
export async function createHost(options: HostOptions): Promise<Host> {
  const dataDir = path.resolve(options.dataDir)
  fs.mkdirSync(dataDir, { recursive: true })
  // Bash permissions are decided by parsing each line; the grammar loads once, here (a failure makes bash ask).
  await loadShellGrammar()
  const releaseLock = options.lock === false ? () => {} : acquireDataDirLock(dataDir)
  const disposers: (() => void | Promise<void>)[] = [releaseLock]
  try {
    const store = openStore(path.join(dataDir, 'agentry.db'))
    disposers.push(() => store.close())
    // runner and subagents are created after the runtime that calls back into them.
    const late: { runner?: SessionRunner; subagents?: Subagents } = {}
    const hub = new EventHub(store, (stream) => snapshotFor(store, late.runner, stream))
    disposers.push(() => hub.dispose())
    // Before any run, and through the hub: a viewer resuming from its last seq sees what reconciliation closed.
    const reconcileReport = reconcileAfterRestart(store, (sessionId, event) => {
      const session = store.getSession(sessionId)
      if (session) emitterFor(hub, store, session).emit(event)
    })
    ensureDefaultPermissionsFile(dataDir)

    const env = options.env ?? process.env
    const keys = options.keys ?? createFileKeyStore(dataDir)
    const registry = new AgentRegistry({ dataDir })
    disposers.push(() => registry.dispose())
    const settings = createSettingsSource(dataDir, registry)
    const config = (workdir?: string): LoadedConfig => (workdir ? settings.forWorkspace(workdir).config : settings.personal())
    const staticRules = (workdir: string) => settings.forWorkspace(workdir).rules
    const agents = (workdir: string) => registry.resolve(workdir).agents
    const agentModel = (agent: AgentInfo, config: Config): ModelRef | undefined => resolveAgentModel(agent.model, config).modelRef
    const grants = options.grants ?? { yes: false, rules: [] }

    // MCP servers start when a run first needs them and stop with the host (before the store closes).
    const mcp = new McpPool({ dataDir, env })
    disposers.push(() => mcp.dispose())

    const approvals = new Approvals(store)
    const runtimeRules = (rootSessionId: string | undefined, workdir: string): Ruleset => [
      ...store.listRules({ scope: 'workspace', scopeKey: workdir }).map(({ tool, pattern, action }) => ({ tool, pattern, action })),
      ...(rootSessionId ? store.listRules({ scope: 'session', scopeKey: rootSessionId }).map(({ tool, pattern, action }) => ({ tool, pattern, action })) : []),
      ...grants.rules,
      // Headless --yes: whatever would still ask is allowed; runtime rules can never lift a deny.
      ...(grants.yes ? [{ tool: '*', pattern: '*', action: 'allow' as const }] : []),
    ]

    const runtime = new Runtime({
      store,
      approvals,
      dataDir,
      retryDelayMs: options.retryDelayMs,
      rules: {
        protectedWrite: (absTarget, workdir) => protectedWriteReason(absTarget, workdir, dataDir),
        runtimeRules,
      },
      resolveModel: (ref: ModelRef, agentName: string, loaded: LoadedConfig) =>
        resolveModel(ref, { config: loaded.config, configDir: dataDir, keys, env, agentName, keyLimits: loaded.keyLimits }),
      extraTools: (level) => {
        const task = late.subagents?.toolFor(level)
        return task ? [task] : []
      },
      setTodos: (level, todos) => {
        if (store.getSession(level.sessionId)) store.updateSession(level.sessionId, { metadata: { ...store.getSession(level.sessionId)!.metadata, todos } })
      },
      // Only the person's own config.yaml decides the sandbox: a workspace must not be able to turn it off.
      sandboxSettings: () => config().config.sandbox,
      mcp,
      onPlanApproved: (level) => {
        const session = store.getSession(level.sessionId)
        if (session) store.updateSession(session.id, { metadata: { ...session.metadata, activeAgent: 'build' } })
      },
    })
    const subagents = new Subagents({
      runtime,
      store,
      agentModel,
      pricing: (ref) => pricingFor(ref, config().config),
      onBackgroundDone: (parent) => {
        if (parent.depth === 0 || store.getSession(parent.sessionId)) late.runner?.wake(parent.sessionId)
      },
    })
    const runner = new SessionRunner({
      store,
      hub,
      runtime,
      subagents,
      agents,
      settings: (workdir) => settings.forRun(workdir),
      agentModel,
      contextWindow: (ref) => contextWindowFor(ref, config().config),
      pricing: (ref) => pricingFor(ref, config().config),
      headless: options.headless ?? false,
    })
    const workspaces = new Workspaces(dataDir, options.defaultWorkspace ?? process.cwd())
    late.runner = runner
    late.subagents = subagents
    const sandboxStatus = async (workdir: string) => {
      const layers = staticRules(workdir)
      const network = networkAllowed([{ agent: [], static: layers.static, workspace: layers.workspace, runtime: runtimeRules(undefined, workdir) }])
      return sandboxState(config().config.sandbox.enabled, network, await detectSandbox(env))
    }
    const api = createCalls({ store, runner, subagents, approvals, registry, config, agentModel, staticRules, trust: settings.trust, hub, keys, env, dataDir, workspaces, sandboxStatus, mcp })
    runner.resumeQueues()
    disposers.push(approvals.onChange((root) => runner.approvalsChanged(root, approvals.pending(root))))
    approvals.setResumeHook({ resumable: (a) => runner.resumable(a), resumed: (a) => runner.resumed(a) })
    disposers.push(
      startAutoArchive(store, () => config().config.subagents.archiveAfterMinutes, (ids) => {
        for (const id of ids) {
          const session = store.getSession(id)
          if (session) emitterFor(hub, store, session).emit({ type: 'session_updated', sessionId: id, at: Date.now(), session })
        }
      }),
    )

    let stopped = false
    return {
      dataDir,
      api,
      store,
      runner: runner,
      subagents: subagents,
      registry,
      approvals,
      hub,
      mcp,
      reconcileReport,
      config,
      staticRules,
      agents,
      sandboxStatus,
      async stop() {
        if (stopped) return
        stopped = true
        subagents.abortBackground({ all: true }, 'host stopping')
        await runner.stop('host stopping')
        await subagents.settle()
        for (const dispose of disposers.reverse()) await dispose()
      },
    }
  } catch (err) {
    for (const dispose of disposers.reverse()) await dispose()
    throw err
  }
}
