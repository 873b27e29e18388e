/** The CSS Custom Highlight the opened search match paints (styled by `::highlight(search-match)`). */
export const SEARCH_HIGHLIGHT = 'search-match'

/**
 * Marks every occurrence of `terms` (case-insensitive) in the text under `root` with the CSS Custom Highlight API:
 * the rendered Markdown is React's DOM, so nothing is wrapped or rewritten. Buttons and hidden text are skipped.
 * Returns how many ranges were marked (0 where the API is missing: the row's own highlight still shows the match).
 */
export function highlightTerms(root: Element, terms: string[], name = SEARCH_HIGHLIGHT): number {
  if (typeof CSS === 'undefined' || !CSS.highlights || typeof Highlight === 'undefined') return 0
  const needles = [...new Set(terms.map((t) => t.toLowerCase()).filter(Boolean))]
  const ranges: Range[] = []
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement?.closest('button, [aria-hidden=true], .msg-actions') ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  })
  for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
    const lower = n.data.toLowerCase()
    // Lower-casing may change the length (e.g. İ): then offsets would be wrong, so match that node as written.
    const text = lower.length === n.data.length ? lower : n.data
    for (const needle of needles) {
      for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) {
        const r = new Range()
        r.setStart(n, i)
        r.setEnd(n, i + needle.length)
        ranges.push(r)
      }
    }
  }
  CSS.highlights.set(name, new Highlight(...ranges))
  return ranges.length
}

export function clearHighlight(name = SEARCH_HIGHLIGHT): void {
  if (typeof CSS !== 'undefined' && CSS.highlights) CSS.highlights.delete(name)
}
