import type { Nodes } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'

const EXTENSIONS = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }

/** Blocks whose text is separated from the next block's by a space (paragraphs, list items, table cells, …). */
const BLOCKS = new Set(['paragraph', 'heading', 'blockquote', 'list', 'listItem', 'code', 'table', 'tableRow', 'tableCell', 'footnoteDefinition'])

/**
 * Markdown as the words a person reads, on one line: parsed by the parser that renders the transcript (micromark +
 * GFM), so `**bold**`, `` `code` ``, `[text](url)`, `# heading`, `- item` and tables read as their text. Characters
 * that are no Markdown syntax pass through as text. A link's address is dropped, unless it contains `keepUrlWith`
 * (then it follows the link text in parentheses).
 */
export function markdownToPlainText(markdown: string, o: { keepUrlWith?: string } = {}): string {
  const out: string[] = []
  walk(fromMarkdown(markdown, EXTENSIONS), out, o.keepUrlWith)
  return out.join('').replace(/\s+/g, ' ').trim()
}

function walk(node: Nodes, out: string[], keepUrlWith: string | undefined): void {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
      out.push(node.value)
      break
    case 'html':
      // Raw HTML: its text, not its tags.
      out.push(node.value.replace(/<[^>]*>/g, ' '))
      break
    case 'image':
    case 'imageReference':
      out.push(node.alt ?? '')
      break
    case 'break':
    case 'thematicBreak':
      out.push(' ')
      break
    case 'definition':
    case 'footnoteReference':
      break
    default:
      if ('children' in node) for (const child of node.children) walk(child, out, keepUrlWith)
      if (node.type === 'link' && keepUrlWith && node.url.includes(keepUrlWith)) out.push(` (${node.url})`)
  }
  if (BLOCKS.has(node.type)) out.push(' ')
}
