import type { Parser } from 'web-tree-sitter'

/**
 * A bash syntax tree as plain objects: one walk over tree-sitter's cursor, then the wasm tree is freed. The
 * analysis reads nodes many times, and plain objects are cheaper to read than wasm-backed nodes.
 */
export interface SyntaxNode {
  type: string
  named: boolean
  /** the grammar field this node fills in its parent (`name`, `argument`, `redirect`, `body`, …) */
  field: string | null
  text: string
  children: SyntaxNode[]
  /** an ERROR node, or a token the parser had to invent (MISSING) */
  broken: boolean
}

/** Deeper trees are refused (with a reason to ask) rather than risking the stack on a hostile line. */
export const MAX_SYNTAX_DEPTH = 400

export class SyntaxTooDeep extends Error {}

export function parseSyntax(parser: Parser, source: string): SyntaxNode {
  const tree = parser.parse(source)
  if (!tree) throw new Error('tree-sitter returned no tree for a bash line')
  try {
    const cursor = tree.walk()
    try {
      const read = (depth: number): SyntaxNode => {
        if (depth > MAX_SYNTAX_DEPTH) throw new SyntaxTooDeep(`the line nests more than ${MAX_SYNTAX_DEPTH} levels deep`)
        const node: SyntaxNode = {
          type: cursor.nodeType,
          named: cursor.nodeIsNamed,
          field: cursor.currentFieldName,
          text: source.slice(cursor.startIndex, cursor.endIndex),
          children: [],
          broken: cursor.nodeType === 'ERROR' || cursor.nodeIsMissing,
        }
        if (cursor.gotoFirstChild()) {
          do node.children.push(read(depth + 1))
          while (cursor.gotoNextSibling())
          cursor.gotoParent()
        }
        return node
      }
      return read(0)
    } finally {
      cursor.delete()
    }
  } finally {
    tree.delete()
  }
}

export function namedChildren(node: SyntaxNode): SyntaxNode[] {
  return node.children.filter((c) => c.named)
}

export function childrenOf(node: SyntaxNode, field: string): SyntaxNode[] {
  return node.children.filter((c) => c.field === field)
}
