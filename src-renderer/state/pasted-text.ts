/**
 * A long paste in the message box (a log, a stack trace, a file) is kept whole but shown as one token —
 * `[Pasted text #1, 1,204 lines]` — so the box stays usable; the chip under it expands it in place or drops it.
 * What is sent has every token replaced by its text. A token the person deleted drops its paste.
 */

/** Below both, a paste goes in as typed text. */
export const COLLAPSE_LINES = 30
export const COLLAPSE_CHARS = 3000

export type Pastes = ReadonlyMap<number, string>

export function shouldCollapse(pasted: string): boolean {
  return lineCount(pasted) > COLLAPSE_LINES || pasted.length > COLLAPSE_CHARS
}

export function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length
}

export function pasteToken(id: number, text: string): string {
  const lines = lineCount(text)
  return lines > 1 ? `[Pasted text #${id}, ${lines.toLocaleString('en-US')} lines]` : `[Pasted text #${id}, ${text.length.toLocaleString('en-US')} characters]`
}

/** The pastes whose token is still in the text, in id order. */
export function pastesIn(text: string, pastes: Pastes): { id: number; token: string; text: string }[] {
  return [...pastes]
    .map(([id, pasted]) => ({ id, token: pasteToken(id, pasted), text: pasted }))
    .filter((p) => text.includes(p.token))
    .sort((a, b) => a.id - b.id)
}

/** The text as sent: each token replaced by what was pasted (a replacer function: `$&` in a log stays as it is). */
export function expandPastes(text: string, pastes: Pastes): string {
  let out = text
  for (const p of pastesIn(text, pastes)) out = out.split(p.token).join(p.text)
  return out
}
