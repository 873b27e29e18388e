export type { ContainerHandle, ContainerRunner, ContainerSpec, EngineStatus, ExecOptions, ExecResult } from './runner'
export { ContainerError } from './runner'
export { createDockerRunner, LABELS } from './docker-runner'
export { displayUrl, engineUrl } from './engine'
