import { memo, useMemo, useRef, useState } from 'react'
import ReactMarkdown from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { markdownComponents, safeUrl } from './markdown-components'
import { remarkDunder } from './remark-dunder'
import { definitionsOf, splitBlocks, type Split } from './split-blocks'
import { splitTaskResults, type TextSegment } from './task-results'

const REMARK_PLUGINS = [remarkGfm, remarkDunder]

/**
 * Markdown as React elements (react-markdown + GFM; raw HTML is shown as text, never run). The text is cut into
 * top-level blocks and each block is memoized on its source, so a streaming message re-renders only its last block.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const segments = useMemo(() => splitTaskResults(text), [text])
  return (
    <div className="md">
      {segments.map((s, i) => (s.kind === 'md' ? <Blocks key={i} text={s.text} /> : <TaskResult key={i} segment={s} />))}
    </div>
  )
})

function Blocks({ text }: { text: string }) {
  // A finished message renders in one pass; cutting into blocks pays off only once the text starts growing.
  const first = useRef(text)
  const growing = text !== first.current
  const last = useRef<Split | undefined>(undefined)
  const split = useMemo(() => (growing ? (last.current = splitBlocks(text, last.current)) : null), [text, growing])
  const defs = useMemo(() => (split ? definitionsOf(split) : ''), [split])
  if (!split) return <Block source={text} />
  return split.blocks.map((b, i) => (b.definition ? null : <Block key={i} source={defs ? `${b.source}\n\n${defs}` : b.source} />))
}

const Block = memo(function Block({ source }: { source: string }) {
  return (
    <ReactMarkdown remarkPlugins={REMARK_PLUGINS} components={markdownComponents} urlTransform={safeUrl}>
      {source}
    </ReactMarkdown>
  )
})

const CLAMP_LINES = 8

/** A subagent's result quoted in a message: who answered, a few lines of it, the rest behind "Show all". */
function TaskResult({ segment: s }: { segment: Extract<TextSegment, { kind: 'task' }> }) {
  const [open, setOpen] = useState(false)
  const long = s.body.split('\n').length > CLAMP_LINES || s.body.length > 800
  return (
    <div className={`task-result ${s.failed ? 'failed' : ''}`} data-testid="task-result" data-agent={s.agent}>
      <div className="task-result-head">
        <span aria-hidden>↳</span>
        <span className="task-result-agent">{s.agent}</span>
        <span className="task-result-what">{s.failed ? 'failed' : 'result'}</span>
        {s.stats && <span className="task-result-stats">{s.stats}</span>}
      </div>
      {s.body && (
        <div className={`task-result-body ${long && !open ? 'clamped' : ''}`}>
          <Markdown text={s.body} />
        </div>
      )}
      {long && (
        <button type="button" className="link-btn small" onClick={() => setOpen(!open)} aria-expanded={open}>
          {open ? 'Show less' : 'Show all'}
        </button>
      )}
    </div>
  )
}
