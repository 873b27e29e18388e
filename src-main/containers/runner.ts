/**
 * The seam every container engine plugs into (issue 29). The Docker Engine API implementation (dockerode: Docker,
 * Podman's compatible service, remote engines) is the first; a Kubernetes one (a Pod per child, exec through the API)
 * would implement the same three calls — see docs/scale-out.md.
 */
export interface ContainerSpec {
  /** the child session the container is for: its name is `agentry-<sessionId>` */
  sessionId: string
  /** its conversation (labels: a restart finds a crashed host's containers by these, never by name guesses) */
  rootSessionId: string
  /** this host's data dir identity: containers of another data dir are never touched */
  owner: string
  image: string
  /** host folders bind-mounted at the same path inside (the workspace, or the child's worktree) */
  mounts: { path: string; readOnly?: boolean }[]
  /** where commands start by default */
  workdir: string
  /** false: no network at all (NetworkMode none) */
  network: boolean
  limits: { cpus: number; memoryMb: number; pids: number }
}

export interface ExecOptions {
  /** working directory inside the container (a mounted path) */
  cwd: string
  env?: Record<string, string>
  timeoutMs: number
  signal: AbortSignal
  /** output as it comes (stdout and stderr interleaved, as a terminal shows them) */
  onData?(text: string): void
  /** keep at most this many characters of output (the rest is counted, not kept) */
  maxChars: number
}

export interface ExecResult {
  /** null when it was killed */
  exitCode: number | null
  output: string
  /** characters of output not kept (beyond maxChars) */
  dropped: number
  /** why it was cut short: its timeout, the run's abort, or the container's memory limit */
  killed?: 'timeout' | 'abort' | 'oom'
}

export interface ContainerHandle {
  readonly id: string
  readonly name: string
  /** runs `bash -c command` (sh when the image has no bash) inside the container */
  exec(command: string, o: ExecOptions): Promise<ExecResult>
  /** stops and removes it (idempotent) */
  remove(): Promise<void>
}

export type EngineStatus = { ok: true; engine: string; kind: 'docker' | 'podman' | 'other'; version: string; image: { name: string; present: boolean } } | { ok: false; engine: string; message: string }

export interface ContainerRunner {
  /** the engine as configured: reachable? which one, and is the image there? (Settings, `agentry doctor`) */
  status(): Promise<EngineStatus>
  /** creates and starts the child's container; a missing engine or image is a ContainerError naming what to do */
  start(spec: ContainerSpec): Promise<ContainerHandle>
  /** removes the containers of `owner` whose session is not in `keep` (a crashed host's, found by label at start) */
  sweep(owner: string, keep: (sessionId: string) => boolean): Promise<{ removed: string[]; failed: { name: string; error: string }[] }>
}

/** An engine or container problem, in one sentence a person can act on (never a stack trace). */
export class ContainerError extends Error {
  override readonly name = 'ContainerError'
}
