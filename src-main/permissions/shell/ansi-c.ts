/**
 * Decodes the body of a bash ANSI-C quoted word (`$'…'`, without the `$'` and `'`), the way bash does, so
 * `$'\x72m'` is judged as `rm`. Returns the value bash would use: like bash, a NUL byte (`\0`, `\x00`) ends it.
 */
export function decodeAnsiC(body: string): string {
  let out = ''
  let i = 0
  const SIMPLE: Record<string, string> = {
    a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?',
  }
  const take = (re: RegExp, max: number): string => {
    let digits = ''
    while (digits.length < max && i < body.length && re.test(body[i])) digits += body[i++]
    return digits
  }
  while (i < body.length) {
    const c = body[i++]
    if (c !== '\\' || i >= body.length) {
      out += c
      continue
    }
    const e = body[i++]
    if (e in SIMPLE) out += SIMPLE[e]
    else if (e >= '0' && e <= '7') {
      i--
      out += String.fromCharCode(parseInt(take(/[0-7]/, 3), 8) & 0xff)
    } else if (e === 'x') {
      const hex = take(/[0-9a-fA-F]/, 2)
      out += hex ? String.fromCharCode(parseInt(hex, 16)) : '\\x'
    } else if (e === 'u' || e === 'U') {
      const hex = take(/[0-9a-fA-F]/, e === 'u' ? 4 : 8)
      const code = hex ? parseInt(hex, 16) : NaN
      out += Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : `\\${e}${hex}`
    } else if (e === 'c' && i < body.length) {
      const x = body[i++]
      out += x === '?' ? '\x7f' : String.fromCharCode(x.toUpperCase().charCodeAt(0) & 0x1f)
    } else out += `\\${e}`
    const nul = out.indexOf('\0')
    if (nul !== -1) return out.slice(0, nul)
  }
  return out
}
