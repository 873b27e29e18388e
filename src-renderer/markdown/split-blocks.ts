import { fromMarkdown } from 'mdast-util-from-markdown'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'

/**
 * Cuts Markdown into its top-level blocks (paragraph, list, table, code fence, …) with the same parser that
 * renders it (micromark + GFM), so each block can be rendered and memoized on its own source: while a message
 * streams, only the block that grows re-renders.
 *
 * Streaming only appends, and appended text can change only the last top-level block (every earlier block was
 * closed by the one after it), so a new split re-parses from the start of the previous last block.
 */

export type MdBlock = { source: string; start: number; definition: boolean }
export type Split = { text: string; blocks: MdBlock[] }

const EXTENSIONS = { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }

export function splitBlocks(text: string, prev?: Split): Split {
  if (prev && prev.blocks.length > 0 && text.startsWith(prev.text)) {
    const kept = prev.blocks.slice(0, -1)
    const from = prev.blocks[prev.blocks.length - 1].start
    return { text, blocks: [...kept, ...parse(text, from)] }
  }
  return { text, blocks: parse(text, 0) }
}

function parse(text: string, from: number): MdBlock[] {
  const part = text.slice(from)
  const tree = fromMarkdown(part, EXTENSIONS)
  const blocks: MdBlock[] = []
  for (const node of tree.children) {
    const s = node.position?.start.offset
    const e = node.position?.end.offset
    if (s === undefined || e === undefined) continue
    // From the start of the line: indentation is part of the block's meaning.
    const lineStart = part.lastIndexOf('\n', s - 1) + 1
    blocks.push({ source: part.slice(lineStart, e), start: from + lineStart, definition: node.type === 'definition' })
  }
  return blocks
}

/** Reference definitions (`[x]: https://…`) may sit anywhere; each block is rendered with all of them. */
export function definitionsOf(split: Split): string {
  return split.blocks
    .filter((b) => b.definition)
    .map((b) => b.source.trim())
    .join('\n')
}
