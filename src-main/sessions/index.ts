export { SessionRunner, RunnerError } from './runner'
export type { RunnerDeps } from './runner'
export { ancestorsOf, emitterFor } from './emitter'
export { cleanTitle } from './title'
