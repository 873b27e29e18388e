import fs from 'node:fs'
import { PROMPT_MAX_CHARS } from '../../src-shared/limits'
import { UsageError } from './args'

/**
 * The prompt of `agentry run`: its words, and what is piped in — `cat build.log | agentry run "why does this fail?"`
 * sends the question, a blank line, then the log (people paste logs; an argument is capped by the OS at 128 KB on
 * Linux). `-` as the prompt takes it all from stdin. Only a pipe or a file on stdin is read: a terminal, /dev/null or
 * a socket a parent left open is not waited on (a run started by a program would otherwise hang on its stdin).
 */
export async function promptOf(words: string[], o: { ownProcess?: boolean }): Promise<string> {
  const typed = words.join(' ').trim()
  const explicit = typed === '-'
  const piped = explicit || (o.ownProcess === true && stdinIsPipeOrFile())
  const input = piped ? await readStdin() : ''
  const prompt = explicit ? input.trim() : input.trim() ? `${typed}${typed ? '\n\n' : ''}${input.replace(/\s+$/, '')}` : typed
  if (!prompt) throw new UsageError(explicit ? 'agentry run -: nothing came on stdin; pipe the prompt in, e.g. agentry run - < prompt.txt' : 'agentry run needs a PROMPT, e.g. agentry run "summarize this project". Run agentry --help for its options.')
  if (prompt.length > PROMPT_MAX_CHARS) throw new UsageError(`the prompt is ${prompt.length.toLocaleString('en-US')} characters; the most one message can carry is ${PROMPT_MAX_CHARS.toLocaleString('en-US')}. Send part of it, or save it in the workspace and ask for it to be read.`)
  return prompt
}

function stdinIsPipeOrFile(): boolean {
  try {
    const st = fs.fstatSync(0)
    return st.isFIFO() || st.isFile()
  } catch (err) {
    // No stdin at all (closed by the parent): nothing was piped.
    if ((err as NodeJS.ErrnoException).code === 'EBADF') return false
    throw err
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
