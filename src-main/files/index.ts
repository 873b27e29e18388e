export { errnoCode, errnoText, isMissing } from './errno'
export { lstatIfPresent } from './lstat'
export { readText, readTextIfPresent, type TextRead } from './read-text'
export { realpathOrSelf } from './realpath'
