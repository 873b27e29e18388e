import type { AgentEvent, AgentInfo, ModelRef, TaskWorktree } from '../../src-shared'
import type { ContainerHandle } from '../containers'
import type { LoadedConfig } from '../config'
import type { Transcript } from '../loop'
import type { HookSet } from '../hooks'
import type { Ruleset } from '../permissions'
import type { PermissionAsk } from '../tools'
import type { Skill } from '../skills'
import type { StaticLayers } from '../trust'
import type { Allowance } from './budget'

/**
 * What a run reads from the person's and the workspace's files — configuration, static rules, agents — taken
 * once when the prompt starts. A file changed during the run (say, by the agent) applies from the next prompt;
 * children share their root's.
 */
export interface RunSettings {
  config: LoadedConfig
  rules: StaticLayers
  agents: AgentInfo[]
  /** the person's skills and the workspace's (those of an untrusted workspace marked not offered); absent: none */
  skills?: Skill[]
  /** Claude Code hooks (issue 27): the person's, and the workspace's once trusted; absent = none */
  hooks?: HookSet
}

/**
 * A port of the session layer, carried by every level: a background child finished and its result is in the
 * parent's transcript, so the parent session may need a turn of its own. Declared here (the lower layer); the session
 * runner implements it when it builds a root level, and every child level passes it on.
 */
export interface BackgroundSink {
  backgroundDone(parentSessionId: string): void
}

/**
 * A port of the session layer for the session tools (`sessions_send`): prompt a stored session — run now, or queued
 * behind the run it has (one run per session) — and whether it is running. Implemented by the session runner.
 */
export interface SessionsPort {
  prompt(sessionId: string, text: string): { queued: boolean }
  isRunning(sessionId: string): boolean
  /** a message for the session's run in flight, at its next step; false when it does not run */
  steer(sessionId: string, text: string): boolean
}

/**
 * A port of the checkpoint layer: told of every tool call allowed to run — who asked (the level) and what its
 * permission asks named — before the call runs, so a turn's changes can be attributed to the agent that made them and
 * the workspace can be snapshotted before the turn's first write (the call waits for that). Declared here (the lower
 * layer); implemented by undo/.
 */
export interface WriteSink {
  allowed(level: RunLevel, toolName: string, asks: PermissionAsk[]): Promise<void> | void
}

/**
 * One run's place in the tree: the root session's run is level 0, each subagent one deeper. Everything that
 * differs between a parent's run and a child's run is here; the loop itself is the same for both.
 */
export interface RunLevel {
  sessionId: string
  rootSessionId: string
  /** the session that spawned this one (undefined at the root) */
  parentSessionId?: string
  /**
   * session ids from the root down to this run's own session (opaque children included): where it sits in the run
   * registry's tree, and — all but the last — who counts its tokens as subagent usage
   */
  path: string[]
  workdir: string
  agent: AgentInfo
  /** agent names from the root down to this run, e.g. ["build", "explore"] */
  agentPath: string[]
  /** below the root, what each run was asked to do (its task's label), e.g. ["Check the repo", "Inspect git"] */
  labelPath?: string[]
  /** declared agent rules from the root down to this run: the child's effective rules are their intersection */
  chain: Ruleset[]
  depth: number
  modelRef: ModelRef
  signal: AbortSignal
  /** events of this run's session; at the root they go to the hub, in a child they are wrapped for the parent */
  emit(event: AgentEvent): void
  /** the user message this run is processing (recorded as parent_message_id of inspectable children) */
  userMessageId: string | null
  /** where this run's messages live (a stored session, or nested in the parent's task part) */
  transcript: Transcript
  /** headless runs cannot ask: `ask` becomes deny unless a grant covers it */
  headless: boolean
  /** rules granted for this run only (`agentry run --allow`, `--yes`): a runtime layer, so never above a deny */
  grants: Ruleset
  background: BackgroundSink
  /** absent where no session layer runs (then sessions_send says so) */
  sessionsPort?: SessionsPort
  /** the configuration, rules and agents of this run (see RunSettings) */
  settings: RunSettings
  /** the conversation's scratchpad folder (real path), shared by every agent of it; absent where it could not be made */
  scratchpad?: string
  /** the git worktree this run works in (a child with isolation: worktree) */
  worktree?: TaskWorktree
  /** the container its bash commands run in (a child with isolation: container, and the children it starts) */
  container?: ContainerHandle
  /** its budget, chained to every budget above it (absent: nothing limits it) */
  allowance?: Allowance
}
