import { memo, useMemo, type ReactNode } from 'react'
import { Fragment, jsx, jsxs } from 'react/jsx-runtime'
import { toJsxRuntime } from 'hast-util-to-jsx-runtime'
import { CopyButton } from '../components/common/copy-button'
import { DiffView } from '../components/common/diff-view'
import { grammarName } from './languages'
import { highlightTree, useGrammarVersion } from './highlight'

/** A fenced code block: highlighted, with its language and a copy button; ```diff blocks are drawn as diffs. */
export const CodeBlock = memo(function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const isDiff = grammarName(lang) === 'diff'
  return (
    <div className="code-block" data-testid="code-block" data-lang={lang || undefined}>
      <div className="code-head">
        <span className="code-lang">{lang || 'text'}</span>
        <CopyButton text={() => code} label="Copy code" testId="copy-code" />
      </div>
      {isDiff ? <DiffView unified={code} testId="code-diff" /> : <Highlighted code={code} lang={lang} />}
    </div>
  )
})

function Highlighted({ code, lang }: { code: string; lang: string }) {
  const grammars = useGrammarVersion()
  // `grammars` changes when a grammar finished loading: highlight again then.
  const content = useMemo<ReactNode>(() => {
    const tree = highlightTree(code, lang)
    return tree ? toJsxRuntime(tree, { Fragment, jsx, jsxs }) : code
  }, [code, lang, grammars])
  return (
    // Focusable so a keyboard user can scroll a wide block sideways.
    <pre tabIndex={0} aria-label={lang ? `${lang} code` : 'code'}>
      <code className="hljs">{content}</code>
    </pre>
  )
}
