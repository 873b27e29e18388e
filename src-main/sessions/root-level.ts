import type { AgentInfo, Budget, ClientMcpServer, Config, HeadlessRun, ModelRef, SessionRecord, SubagentMeta } from '../../src-shared'
import { StoredTranscript } from '../loop'
import { defaultModelRef } from '../models'
import type { Ruleset } from '../permissions'
import { agentRules, subagentRules, withClientMcpServers, type BackgroundSink, type RunLevel, type RunSettings, type SessionsPort } from '../runtime'
import type { SessionsRepository, TranscriptRepository } from '../store'
import type { Emitter } from './emitter'

/**
 * What a front end sends with a prompt for the runs of its conversation: `agentry run`'s headless grants, an editor's
 * MCP servers. Kept per queued prompt, then — while the prompt is worked on — per conversation, for the turns its
 * children's results start.
 */
export interface RunOptions {
  grants?: Ruleset
  mcp?: ClientMcpServer[]
  /** `agentry run --max-cost/--max-tokens` */
  budget?: Budget
}

/** `agentry run`'s grants as rules of the runtime layer (never above a deny): `--allow`, then `--yes` for the rest. */
export function grantRules(h: HeadlessRun): Ruleset {
  return [
    ...h.allow.map(({ tool, pattern }) => ({ tool, pattern, action: 'allow' as const })),
    ...(h.yes ? [{ tool: '*', pattern: '*', action: 'allow' as const }] : []),
  ]
}

export interface RootLevelDeps {
  sessions: SessionsRepository
  transcript: TranscriptRepository
  agentModel(agent: AgentInfo, config: Config): ModelRef | undefined
  headless: boolean
  scratchpad?(rootSessionId: string): string | undefined
}

/**
 * The run level of a session prompted directly (a conversation, or a child session the person or a parent messages):
 * its ancestors' rules still bound it (a child never exceeds its parent), and its path in the run tree is its stored
 * ancestry.
 */
export function rootLevel(
  deps: RootLevelDeps,
  o: {
    session: SessionRecord
    ancestors: SessionRecord[]
    agent: AgentInfo
    settings: RunSettings
    signal: AbortSignal
    userMessageId: string | null
    emitter: Emitter
    options: RunOptions | undefined
    background: BackgroundSink
    sessionsPort: SessionsPort
  },
): RunLevel {
  const { session, ancestors, settings, agent } = o
  const all = settings.agents
  const rootSessionId = ancestors[0]?.id ?? session.id
  // A child records the agents above it (opaque ones have no session row to find them by): all of them bound it.
  const recorded = (session.metadata.subagent as SubagentMeta | undefined)?.agentPath?.slice(0, -1)
  const above = recorded ?? ancestors.map((a) => a.agent)
  const chainAgents = [...above.map((name) => all.find((x) => x.name === name)).filter((a): a is AgentInfo => !!a), agent]
  return {
    sessionId: session.id,
    rootSessionId,
    parentSessionId: session.parentId ?? undefined,
    path: [...ancestors.map((a) => a.id), session.id],
    workdir: session.workspaceRoot,
    agent,
    agentPath: chainAgents.map((a) => a.name),
    // Every level below the root is a subagent: the configured subagent tool policy bounds it too.
    chain: chainAgents.map((a, i) => (i === 0 ? agentRules(a) : subagentRules(a, settings.config.config))),
    depth: above.length,
    modelRef: modelFor(deps, session, agent, settings.config.config),
    signal: o.signal,
    emit: o.emitter.emit,
    userMessageId: o.userMessageId,
    transcript: new StoredTranscript(deps.transcript, session.id),
    headless: deps.headless || o.options?.grants !== undefined,
    grants: o.options?.grants ?? [],
    background: o.background,
    sessionsPort: o.sessionsPort,
    settings: withClientMcpServers(settings, o.options?.mcp),
    scratchpad: deps.scratchpad?.(rootSessionId),
  }
}

/**
 * The session's model (chosen when it was created — the person's pick, else its agent's model, else the default —
 * or switched since with the model picker). A message sent with another agent whose file names a model runs on
 * that agent's model.
 */
function modelFor(deps: Pick<RootLevelDeps, 'agentModel'>, session: SessionRecord, agent: AgentInfo, config: Config): ModelRef {
  const own = agent.name !== session.agent ? deps.agentModel(agent, config) : undefined
  return own ?? session.model ?? deps.agentModel(agent, config) ?? defaultModelRef(config)
}
