/** The most of a conversation a helper (summary, compaction) reads: about 50,000 tokens. */
export const HELPER_INPUT_CHARS = 200_000

/**
 * A long conversation for a helper: its start and its end, with the middle left out and said so. The start holds what
 * the person asked for in the first place — a cut that kept only the tail lost it first; the end holds where the work
 * is now. A quarter of the room goes to the start.
 */
export function clipMiddle(text: string, max = HELPER_INPUT_CHARS): string {
  if (text.length <= max) return text
  const head = Math.floor(max / 4)
  const tail = max - head
  const left = text.length - head - tail
  return `${text.slice(0, head)}\n[… ${left.toLocaleString('en-US')} characters of the middle of the conversation left out …]\n${text.slice(-tail)}`
}
