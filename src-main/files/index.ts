export { errnoCode, errnoText, isMissing } from './errno'
export { readText, readTextIfPresent, type TextRead } from './read-text'
