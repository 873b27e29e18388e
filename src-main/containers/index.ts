// Only the seam: the Docker runner (and dockerode, ~350 ms to load) is imported where it is used — the host's
// container port loads it on first use, so a host that never starts a container never loads it.
export type { ContainerHandle, ContainerRunner, ContainerSpec, EngineStatus, ExecOptions, ExecResult } from './runner'
export { ContainerError } from './runner'
