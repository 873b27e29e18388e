/** The tag each host helper's input is wrapped in (its prompt names it). */
export const HELPER_INPUT: Record<string, string> = { title: 'message', summary: 'conversation', compaction: 'conversation' }

/** `text` inside `<tag>…</tag>`, with any closing tag inside it defused so the data cannot end the wrapper early. */
export function asData(tag: string, text: string): string {
  return `<${tag}>\n${text.split(`</${tag}>`).join(`</ ${tag}>`)}\n</${tag}>`
}
