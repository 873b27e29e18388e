import type { LanguageModelV4CallOptions } from '@ai-sdk/provider'
import {
  firstUserText,
  lastToolResults,
  messageText,
  offeredToolNames,
  type ToolResultView,
} from './prompt-text'

/** What the offline demo model says, decided from the agent name and the conversation so far. */

export const DEMO_LABEL = '[demo model — offline, scripted]'

export interface DemoReply {
  text: string
  toolCalls: Array<{ name: string; input: Record<string, unknown> }>
}

const SETUP_HINT = [
  'This answer came from the built-in demo model: it follows a fixed script and does not send your',
  'prompt anywhere. To use a real model, add a provider to `config.yaml` in the Agentry data dir',
  '(or `.agents/config.yaml` in this workspace), for example:',
  '',
  '```yaml',
  'model: anthropic/claude-sonnet-4-5',
  'providers:',
  '  anthropic: { type: anthropic }   # key from ANTHROPIC_API_KEY or Settings → Providers',
  '  # local: { type: ollama, baseURL: "http://127.0.0.1:11434" }   # then model: local/llama3.1',
  '```',
].join('\n')

const FAN_OUT = [
  {
    subagent_type: 'explore',
    description: 'Survey the workspace',
    prompt: 'List the top-level files and summarize what this project is.',
  },
  {
    subagent_type: 'general',
    description: 'Check the build setup',
    prompt: 'Look for a package.json or Makefile and report how to build.',
  },
]

/** First `max` characters of a tool result, on as few lines as needed, for quoting back. */
function excerpt(text: string, max = 240): string {
  const trimmed = text.trim()
  return trimmed.length > max ? `${trimmed.slice(0, max).trimEnd()}…` : trimmed
}

function quote(text: string): string {
  return excerpt(text)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')
}

function inputField(input: unknown, field: string): string | undefined {
  let value: unknown = input
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      return undefined // not JSON: the field is simply unknown, which only affects a label
    }
  }
  if (typeof value !== 'object' || value === null) return undefined
  const found = (value as Record<string, unknown>)[field]
  return typeof found === 'string' ? found : undefined
}

function primaryReply(options: LanguageModelV4CallOptions, results: ToolResultView[]): DemoReply {
  if (results.length > 0) {
    const reports = results.map((r) => {
      const who = inputField(r.input, 'subagent_type') ?? r.toolName
      const what = inputField(r.input, 'description')
      const head = `**${who}**${what ? ` (${what})` : ''}${r.failed ? ' did not finish:' : ' reported:'}`
      return `${head}\n${quote(r.text)}`
    })
    const text = `${DEMO_LABEL} The subagents are done. Here is what they found:\n\n${reports.join('\n\n')}\n\n${SETUP_HINT}`
    return { text, toolCalls: [] }
  }
  if (!offeredToolNames(options).has('task')) {
    return { text: `${DEMO_LABEL} I can't delegate to subagents here, so this is all I can show.\n\n${SETUP_HINT}`, toolCalls: [] }
  }
  return {
    text: `${DEMO_LABEL} I'll split this into two parallel subagent tasks: one surveys the workspace, one checks how to build it.`,
    toolCalls: FAN_OUT.map((input) => ({ name: 'task', input: { ...input } })),
  }
}

function exploreReply(options: LanguageModelV4CallOptions, results: ToolResultView[]): DemoReply {
  const listing = results.find((r) => r.toolName === 'list_dir')
  if (listing) {
    // Skip notes such as "(. is empty)" and "… 12 more entries not shown": they are not entries.
    const entries = listing.text.split('\n').filter((line) => line.trim() !== '' && !/^[(…]/.test(line.trim()))
    const text = listing.failed
      ? `${DEMO_LABEL} I could not list the workspace:\n${quote(listing.text)}`
      : `${DEMO_LABEL} The workspace has ${entries.length} top-level entries:\n${quote(listing.text)}\n\nThat is the shape of the project; a real model would also read the key files and summarize them.`
    return { text, toolCalls: [] }
  }
  if (results.length === 0 && offeredToolNames(options).has('list_dir')) {
    return { text: `${DEMO_LABEL} Listing the workspace.`, toolCalls: [{ name: 'list_dir', input: { path: '.' } }] }
  }
  return { text: `${DEMO_LABEL} I have no list_dir tool here, so I cannot survey the workspace.`, toolCalls: [] }
}

function buildAdvice(globText: string): string {
  // Judge matched paths only: the "No files match **/{package.json,Makefile}" note names both files too.
  const files = globText.split('\n').map((line) => line.trim().toLowerCase())
  const has = (name: string) => files.some((f) => f === name || f.endsWith(`/${name}`))
  const advice: string[] = []
  if (has('package.json')) advice.push('there is a package.json: run `npm install`, then the scripts it lists (e.g. `npm run build`)')
  if (has('makefile')) advice.push('there is a Makefile: run `make`')
  return advice.length > 0 ? `To build: ${advice.join('; ')}.` : 'I found no package.json or Makefile, so there is no obvious build step.'
}

function generalReply(options: LanguageModelV4CallOptions, results: ToolResultView[]): DemoReply {
  if (results.length > 0) {
    const glob = results.find((r) => r.toolName === 'glob')
    const bash = results.find((r) => r.toolName === 'bash')
    const lines = [`${DEMO_LABEL} Build check:`]
    if (glob) lines.push(glob.failed ? `The file search failed:\n${quote(glob.text)}` : `Matching files:\n${quote(glob.text || '(none)')}`)
    if (bash) {
      lines.push(
        bash.failed
          ? `The \`ls\` command was not run (${excerpt(bash.text, 120)}). That is fine: the file search above is enough.`
          : `\`ls\` shows:\n${quote(bash.text)}`,
      )
    }
    lines.push(buildAdvice(glob && !glob.failed ? glob.text : ''))
    return { text: lines.join('\n\n'), toolCalls: [] }
  }
  const tools = offeredToolNames(options)
  const toolCalls: DemoReply['toolCalls'] = []
  if (tools.has('glob')) toolCalls.push({ name: 'glob', input: { pattern: '**/{package.json,Makefile}' } })
  if (tools.has('bash')) toolCalls.push({ name: 'bash', input: { command: 'ls' } })
  if (toolCalls.length === 0) return { text: `${DEMO_LABEL} I have no tools to inspect the build setup here.`, toolCalls }
  return { text: `${DEMO_LABEL} Looking for build files, and listing the folder with \`ls\` (that one may ask for your approval).`, toolCalls }
}

/** 3–6 words taken from the first user message. */
export function demoTitle(firstMessage: string): string {
  // The first clause reads as a title ("Show me how you work: explore…" → "Show me how you work").
  const clause = firstMessage.split(/[.:;!?\n]/).find((c) => c.trim().split(/\s+/).length >= 3) ?? firstMessage
  const words = clause.replace(/[^\p{L}\p{N}\s'-]/gu, ' ').split(/\s+/).filter(Boolean)
  if (words.length === 0) return 'New demo conversation'
  const picked = words.length >= 3 ? words.slice(0, 6) : ['Quick', 'chat', 'about', ...words]
  const title = picked.join(' ')
  return title.charAt(0).toUpperCase() + title.slice(1)
}

function summaryReply(options: LanguageModelV4CallOptions): DemoReply {
  const bullets = options.prompt
    .filter((m) => m.role === 'user' || m.role === 'assistant' || m.role === 'tool')
    .map((m) => ({ role: m.role, text: messageText(m).replace(/\s+/g, ' ').trim() }))
    .filter((m) => m.text !== '')
    .slice(-8)
    .map((m) => `- ${m.role}: ${excerpt(m.text, 100)}`)
  const body = bullets.length > 0 ? bullets.join('\n') : '- (nothing to summarize yet)'
  return { text: `${DEMO_LABEL} Summary of the conversation so far:\n${body}`, toolCalls: [] }
}

export function demoReply(agentName: string, options: LanguageModelV4CallOptions): DemoReply {
  const results = lastToolResults(options.prompt)
  switch (agentName) {
    case 'explore':
      return exploreReply(options, results)
    case 'general':
      return generalReply(options, results)
    case 'title':
      return { text: `${DEMO_LABEL} ${demoTitle(firstUserText(options.prompt))}`, toolCalls: [] }
    case 'summary':
    case 'compaction':
      return summaryReply(options)
    default:
      return primaryReply(options, results)
  }
}
