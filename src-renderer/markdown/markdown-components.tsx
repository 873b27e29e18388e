import type { Element, ElementContent } from 'hast'
import type { Components } from 'react-markdown'
import { CodeBlock } from './code-block'

/** Only web and mail links are links; anything else (javascript:, file:, relative paths) stays text. */
const SAFE_URL = /^(https?:\/\/|mailto:)/i

export function safeUrl(url: string): string {
  return SAFE_URL.test(url) ? url : ''
}

function textOf(nodes: ElementContent[]): string {
  let s = ''
  for (const n of nodes) {
    if (n.type === 'text') s += n.value
    else if (n.type === 'element') s += textOf(n.children)
  }
  return s
}

function codeOf(pre: Element | undefined): { code: string; lang: string } {
  const el = pre?.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code')
  const cls = el?.properties.className
  const list = ([] as unknown[]).concat(cls ?? []).flatMap((c) => String(c).split(' '))
  const lang = list.find((c) => c.startsWith('language-'))?.slice('language-'.length) ?? ''
  // micromark keeps the final newline of a fence's content; the block does not need it.
  return { code: textOf(el?.children ?? []).replace(/\n$/, ''), lang }
}

/**
 * How Markdown elements become our elements. The session title is the page's h1, so Markdown headings start
 * at h2; tables scroll sideways on their own; task-list boxes are read-only and say what they mean.
 */
export const markdownComponents: Components = {
  pre: ({ node }) => {
    const { code, lang } = codeOf(node)
    return <CodeBlock code={code} lang={lang} />
  },
  code: ({ children }) => <code className="inline-code">{children}</code>,
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noreferrer noopener">
        {children}
      </a>
    ) : (
      <span className="md-nolink">{children}</span>
    ),
  // Remote images are not loaded (privacy, and the page's policy forbids them): a link to open it instead.
  img: ({ src, alt }) =>
    typeof src === 'string' && src ? (
      <a href={src} target="_blank" rel="noreferrer noopener" className="md-image-link">
        🖼 {alt || src}
      </a>
    ) : (
      <span>{alt}</span>
    ),
  table: ({ children }) => (
    <div className="md-table" tabIndex={0} role="region" aria-label="Table">
      <table>{children}</table>
    </div>
  ),
  input: ({ checked, type }) =>
    type === 'checkbox' ? (
      <input type="checkbox" className="md-check" checked={checked === true} readOnly disabled aria-label={checked ? 'done' : 'not done'} />
    ) : null,
  h1: ({ children }) => <h2 className="md-h1">{children}</h2>,
  h2: ({ children }) => <h3 className="md-h2">{children}</h3>,
  h3: ({ children }) => <h4 className="md-h3">{children}</h4>,
  h4: ({ children }) => <h5 className="md-h4">{children}</h5>,
  h5: ({ children }) => <h6 className="md-h5">{children}</h6>,
  h6: ({ children }) => <h6 className="md-h6">{children}</h6>,
}
