import { memo, useMemo, type ReactNode } from 'react'
import { highlight } from './highlight'
import { parseInline, parseMarkdown, type Block, type Inline } from './parse-markdown'

/** Renders Markdown as React elements; memoized on the text, so an unchanged part costs nothing per frame. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text])
  return <div className="md">{blocks.map((b, i) => <BlockView key={i} block={b} />)}</div>
})

/** Blocks are re-parsed on every delta, but only a block whose content changed re-renders (usually the last one). */
const BlockView = memo(BlockContent, (a, b) => sameBlock(a.block, b.block))

function sameBlock(a: Block, b: Block): boolean {
  if (a.kind !== b.kind) return false
  switch (a.kind) {
    case 'p':
    case 'quote':
      return a.text === (b as typeof a).text
    case 'h':
      return a.text === (b as typeof a).text && a.level === (b as typeof a).level
    case 'code':
      return a.code === (b as typeof a).code && a.lang === (b as typeof a).lang
    case 'list': {
      const c = b as typeof a
      return a.ordered === c.ordered && a.start === c.start && a.items.length === c.items.length && a.items.every((x, i) => x === c.items[i])
    }
    case 'hr':
      return true
  }
}

function BlockContent({ block }: { block: Block }): ReactNode {
  switch (block.kind) {
    case 'p':
      return <p>{inline(parseInline(block.text))}</p>
    case 'h': {
      const Tag = (['h3', 'h3', 'h4', 'h5', 'h6', 'h6'] as const)[block.level - 1]
      return <Tag>{inline(parseInline(block.text))}</Tag>
    }
    case 'code':
      return <CodeBlock code={block.code} lang={block.lang} />
    case 'list': {
      const items = block.items.map((it, i) => <li key={i}>{inline(parseInline(it))}</li>)
      return block.ordered ? <ol start={block.start}>{items}</ol> : <ul>{items}</ul>
    }
    case 'quote':
      return <blockquote>{inline(parseInline(block.text))}</blockquote>
    case 'hr':
      return <hr />
  }
}

export const CodeBlock = memo(function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const tokens = useMemo(() => highlight(code, lang), [code, lang])
  return (
    <div className="code-block">
      {lang && <div className="code-lang">{lang}</div>}
      <pre>
        <code>
          {tokens.map((t, i) => (t.t === 'plain' ? t.v : <span key={i} className={`tok-${t.t}`}>{t.v}</span>))}
        </code>
      </pre>
    </div>
  )
})

function inline(nodes: Inline[]): ReactNode[] {
  return nodes.map((n, i) => {
    switch (n.kind) {
      case 'text':
        return n.text
      case 'br':
        return <br key={i} />
      case 'code':
        return <code key={i} className="inline-code">{n.text}</code>
      case 'strong':
        return <strong key={i}>{inline(n.children)}</strong>
      case 'em':
        return <em key={i}>{inline(n.children)}</em>
      case 'link':
        return (
          <a key={i} href={n.href} target="_blank" rel="noreferrer noopener">
            {inline(n.children)}
          </a>
        )
    }
  })
}
