// One definition of "running" for the app and the shared notification policy.
export { isRunningStatus as isRunning } from '../../src-shared'
