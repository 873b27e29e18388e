import type { Nodes, Root } from 'mdast'

/**
 * CommonMark reads `__init__` as bold "init". Model output is full of Python dunder names outside backticks, and
 * a person expects to see them as written, so bold made with underscores around one bare identifier is turned
 * back into its text. `**bold**` and bold phrases with `__` are untouched.
 */
export function remarkDunder() {
  return (tree: Root, file: { value: unknown }) => {
    const source = String(file.value)
    walk(tree, source)
  }
}

function walk(node: Nodes, source: string): void {
  if (!('children' in node)) return
  const children = node.children as Nodes[]
  for (let i = 0; i < children.length; i++) {
    const c = children[i]
    if (c.type === 'strong' && isDunder(c, source)) {
      const text = c.children[0].type === 'text' ? c.children[0].value : ''
      children[i] = { type: 'text', value: `__${text}__`, position: c.position }
      continue
    }
    walk(c, source)
  }
}

function isDunder(node: Extract<Nodes, { type: 'strong' }>, source: string): boolean {
  const at = node.position?.start.offset
  if (at === undefined || source[at] !== '_') return false
  const only = node.children.length === 1 ? node.children[0] : null
  return only?.type === 'text' && /^\w+$/.test(only.value)
}
