export { Markdown, CodeBlock } from './markdown-view'
export { parseMarkdown, parseInline, safeHref, type Block, type Inline } from './parse-markdown'
export { highlight, type Token } from './highlight'
