import type { MessageWithParts, PartRecord, SessionRecord, TaskCard } from '../../src-shared'
import { taskStatusText, toolCallCountsText } from '../../src-shared/task-card-text'
import { conversationMarkdown } from '../../src-shared/conversation-markdown'
import { formatDuration } from '../../src-shared/duration'
import type { BudgetView } from '../../src-shared/budget'
import { describeSpend } from '../../src-shared/budget-text'
import { HostError } from '../../src-shared/host-api'
import type { BridgeClient } from '../../src-shared/bridge-client'
import type { CliHost } from './host-connection'
import { UsageError, type ParsedArgs } from './args'
import { INTERRUPTED_NOTE, refuseExtraArguments, shownStatus, withHost } from './list-commands'
import type { CliIO } from './run'

/** `agentry show SESSION`: the transcript, opaque children nested in place, inspectable children after it. */
export async function showCommand(args: ParsedArgs, io: CliIO): Promise<number> {
  const [id, ...extra] = args.positionals
  if (!id) throw new UsageError('agentry show needs a SESSION id (see agentry sessions)')
  refuseExtraArguments('show SESSION', extra)
  let shown: SessionTree
  try {
    shown = await withHost(args, io, process.cwd(), async (api, host) => markInterrupted(await tree(api, id), host), { inspect: true })
  } catch (err) {
    if (!(HostError.isInstance(err) && err.code === 'not_found')) throw err
    // The id the person typed names nothing: a usage error (2), like an unknown argument.
    io.stderr.write(`agentry: no session ${id}. List them with: agentry sessions --all\n`)
    return 2
  }
  if (args.values.json) io.stdout.write(`${JSON.stringify(shown)}\n`)
  else if (args.values.markdown) io.stdout.write(conversationMarkdown(shown.session, shown.messages))
  else {
    printSession(shown, 0, io.stdout)
    if (hasInterrupted(shown)) io.stderr.write(`${INTERRUPTED_NOTE}\n`)
  }
  return 0
}

/** A host that is gone left its sessions "busy": shown as interrupted (the stored rows are not touched). */
function markInterrupted(t: SessionTree, host: CliHost): SessionTree {
  const status = shownStatus(t.session.status, host)
  return { ...t, session: { ...t.session, status }, children: t.children.map((c) => markInterrupted(c, host)) }
}

function hasInterrupted(t: SessionTree): boolean {
  return t.session.status === 'interrupted' || t.children.some(hasInterrupted)
}

interface SessionTree {
  /** `status` may be `interrupted`: shown for a session its dead host left running */
  session: Omit<SessionRecord, 'status'> & { status: string }
  messages: MessageWithParts[]
  children: SessionTree[]
}

/** The session and its inspectable children, oldest child first, through the same call the UI opens a session with. */
async function tree(api: BridgeClient, sessionId: string): Promise<SessionTree> {
  const { session, messages, children } = await api.calls['sessions.get']({ sessionId })
  const nested: SessionTree[] = []
  for (const child of [...children].reverse()) nested.push(await tree(api, child.id))
  return { session, messages, children: nested }
}

function printSession({ session, messages, children }: SessionTree, depth: number, out: NodeJS.WritableStream): void {
  const pad = '  '.repeat(depth)
  const cost = session.costUsd ? ` · $${session.costUsd.toFixed(4)}` : ''
  out.write(`${pad}━━ ${session.id} · ${session.agent} · ${session.status} · ${session.title || '(untitled)'}\n`)
  const u = session.usage
  const cache = u.cacheRead || u.cacheWrite ? ` · cache ${u.cacheRead} read / ${u.cacheWrite} write` : ''
  out.write(`${pad}   tokens ${u.prompt} in / ${u.completion} out${cache}${cost}\n`)
  // Written by the host from the schema; checked by shape only, so that `show` loads no schemas.
  const budget = session.metadata.budget as BudgetView | undefined
  if (budget && typeof budget === 'object' && budget.limit && budget.spent) out.write(`${pad}   ${budgetLine(budget)}\n`)
  printMessages(messages, session.agent, depth, out)
  for (const child of children) {
    out.write('\n')
    printSession(child, depth + 1, out)
  }
}

export function printMessages(messages: MessageWithParts[], agent: string, depth: number, out: NodeJS.WritableStream): void {
  const pad = '  '.repeat(depth)
  for (const m of messages) {
    const who = m.role === 'user' ? (m.metadata.steered === 'agent' ? 'its caller, while it ran' : m.metadata.steered ? 'user, while it ran' : 'user') : m.metadata.synthetic ? 'background result' : m.metadata.notice ? 'notice' : String(m.metadata.agent ?? agent)
    for (const part of m.parts) printPart(part, who, depth, out)
    if (!m.parts.length && m.role === 'user') out.write(`${pad}user: (empty)\n`)
  }
}

function printPart(part: PartRecord, who: string, depth: number, out: NodeJS.WritableStream): void {
  const pad = '  '.repeat(depth)
  if (part.type === 'text') return void out.write(`${pad}${who}: ${indent(String(part.data.text ?? ''), pad + '  ')}\n`)
  if (part.type === 'reasoning') return void out.write(`${pad}  (thinking) ${indent(String(part.data.text ?? ''), pad + '  ')}\n`)
  if (part.type === 'data-compaction') return void out.write(`${pad}── earlier messages compacted into a summary ──\n`)
  if (!part.type.startsWith('tool-')) return
  const tool = part.type.slice(5)
  const ok = part.toolState === 'output-available'
  const mark = ok ? '✓' : part.toolState === 'output-error' ? '✗' : '…'
  const card = part.data.subagent as TaskCard | undefined
  if (card) {
    const took = card.startedAt && card.endedAt ? ` ${formatDuration(card.endedAt - card.startedAt)}` : ''
    const kind = card.inspectable ? ` · child session ${card.taskId}` : ''
    const calls = toolCallCountsText(card.toolCalls)
    out.write(`${pad}  ${mark} task ${card.agentType} "${card.description}" → ${taskStatusText(card)}${calls ? ` · ${calls}` : ''}${took} · ${card.steps} steps${card.background ? ' · background' : ''}${kind}\n`)
    if (card.budget) out.write(`${pad}    ${budgetLine(card.budget)}\n`)
    if (card.transcript) printMessages(card.transcript, card.agentType, depth + 2, out)
    if (!ok && part.data.error) out.write(`${pad}    ${firstLine(String(part.data.error))}\n`)
    return
  }
  const input = JSON.stringify(part.data.input ?? {})
  const result = String((ok ? part.data.output : part.data.error) ?? '')
  out.write(`${pad}  ${mark} ${tool} ${input.length > 120 ? `${input.slice(0, 117)}…` : input}\n`)
  if (result) out.write(`${pad}    → ${firstLine(result)}\n`)
}

/** `budget: $0.12 of $0.50, 40k of 200k tokens (the session budget) · 80 %` */
function budgetLine(b: BudgetView): string {
  const state = b.reached ? ` · reached (${b.owner ?? 'a budget'})` : b.warning ? ' · over 80 %' : ''
  return `budget: ${describeSpend(b.limit, b.spent)}${b.owner && !b.reached ? ` (${b.owner})` : ''}${state}`
}

function indent(text: string, pad: string): string {
  return text.replace(/\n/g, `\n${pad}`)
}

function firstLine(s: string): string {
  const l = s.split('\n')[0]
  return l.length > 160 ? `${l.slice(0, 157)}…` : l
}
