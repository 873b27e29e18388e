/** A light highlighter: comments, strings, numbers, keywords — enough to read code, language-agnostic. */

export type Token = { t: 'plain' | 'comment' | 'string' | 'number' | 'keyword' | 'fn'; v: string }

const KEYWORDS = new Set(
  (
    'abstract as async await break case catch class const continue def default defer del delete do elif else enum export extends ' +
    'false final finally fn for from func function go if impl import in interface is let loop match mod mut new nil none not null ' +
    'or package pass private protected pub public raise return self static struct super switch this throw true try type typeof ' +
    'undefined use var void while with yield echo then fi done esac local readonly True False None'
  ).split(' '),
)

const HASH_COMMENT = new Set(['py', 'python', 'sh', 'bash', 'shell', 'zsh', 'yaml', 'yml', 'toml', 'rb', 'ruby', 'r', 'conf', 'ini', 'dockerfile', 'make', 'makefile'])

const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|(#[^\n]*)|("(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?|`(?:[^`\\]|\\.)*`?)|(\b\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?\b|\b0x[\da-f]+\b)|([A-Za-z_$][\w$]*)(?=\s*\()|([A-Za-z_$][\w$]*)/gi

export function highlight(code: string, lang: string): Token[] {
  const hash = HASH_COMMENT.has(lang)
  const out: Token[] = []
  let last = 0
  const push = (t: Token['t'], v: string): void => {
    const prev = out[out.length - 1]
    if (prev && prev.t === t) prev.v += v
    else out.push({ t, v })
  }
  const re = new RegExp(TOKEN.source, TOKEN.flags)
  // Very long blocks are shown plain: highlighting must never be what makes a long transcript slow.
  if (code.length > 50_000) return [{ t: 'plain', v: code }]
  for (let m = re.exec(code); m; m = re.exec(code)) {
    if (m.index > last) push('plain', code.slice(last, m.index))
    last = m.index + m[0].length
    if (m[1]) push(hash && !m[1].startsWith('/*') ? 'plain' : 'comment', m[1])
    else if (m[2]) push(hash ? 'comment' : 'plain', m[2])
    else if (m[3]) push('string', m[3])
    else if (m[4]) push('number', m[4])
    else if (m[5]) push(KEYWORDS.has(m[5]) ? 'keyword' : 'fn', m[5])
    else if (m[6]) push(KEYWORDS.has(m[6]) ? 'keyword' : 'plain', m[6])
  }
  if (last < code.length) push('plain', code.slice(last))
  return out
}
