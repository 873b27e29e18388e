export { Markdown } from './markdown-view'
export { CodeBlock } from './code-block'
export { splitTaskResults, type TextSegment } from './task-results'
