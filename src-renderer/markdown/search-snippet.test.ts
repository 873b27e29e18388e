import { describe, expect, it } from 'vitest'
import { markdownToPlainText } from './plain-text'
import { markedTerms, snippetSegments } from './search-snippet'

const M = (w: string) => `\u0002${w}\u0003`
/** Segments written as text with [marked] runs. */
const shown = (snippet: string) =>
  snippetSegments(snippet)
    .map((s) => (s.mark ? `[${s.text}]` : s.text))
    .join('')

describe('search snippets read as text (issue 28)', () => {
  it.each([
    ['bold and code', `The **${M('scheduler')}** in \`sched.ts\`.`, 'The [scheduler] in sched.ts.'],
    ['a link keeps its text', `See [the ${M('notes')}](https://example.com/notes) first`, 'See the [notes] first'],
    ['a match inside a link address stays visible', `Read [this](https://example.com/${M('sched')}) now`, 'Read this (https://example.com/[sched]) now'],
    ['heading, list and quote markers', `# ${M('Plan')}\n\n- one\n- two ${M('plan')}\n\n> quoted`, '[Plan] one two [plan] quoted'],
    ['a fenced code block', `Run:\n\n\`\`\`bash\nnpm ${M('test')}\n\`\`\`\n\nthen push`, 'Run: npm [test] then push'],
    ['a table', `| Name | Severity |\n|---|---|\n| ${M('lock')} | high |`, 'Name Severity [lock] high'],
    ['emphasis, strike and an image', `_${M('fast')}_ ~~slow~~ ![a ${M('chart')}](c.png)`, '[fast] slow a [chart]'],
    ['raw HTML keeps its text', `<b>${M('bold')}</b> word`, '[bold] word'],
    ['the ellipses of a cut snippet', `…and the **${M('lock')}** is tak…`, '…and the [lock] is tak…'],
    ['plain text is unchanged', `nothing to ${M('strip')} here`, 'nothing to [strip] here'],
  ])('%s', (_name, snippet, expected) => expect(shown(snippet)).toBe(expected))

  it('drops a marker without its pair and merges neighbouring runs', () => {
    expect(snippetSegments(`a \u0002b`)).toEqual([{ text: 'a b', mark: false }])
    expect(snippetSegments(`${M('x')}${M('y')} z`)).toEqual([
      { text: 'xy', mark: true },
      { text: ' z', mark: false },
    ])
  })

  it('the marked words, once each: what the opened message highlights', () => {
    expect(markedTerms(`The **${M('Scheduler')}** and the ${M('scheduler')} and ${M('Scheduler')}`)).toEqual(['Scheduler', 'scheduler'])
    expect(markedTerms('no marks')).toEqual([])
  })

  it('Markdown to plain text without markers', () => {
    expect(markdownToPlainText('## Title\n\nSome *text* with `code` and a [link](http://x).\n\n1. first\n2. second')).toBe('Title Some text with code and a link. first second')
  })
})
