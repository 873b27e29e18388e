import { memo, useState } from 'react'
import { CommandUse, type PartRecord } from '../../../src-shared'
import { messageVersions } from '../../../src-shared/message-versions'
import { Markdown, splitTaskResults } from '../../markdown'
import { agentColor, useAgents } from '../../state/agents-store'
import { messageText, partText, toolName } from '../../state/part-data'
import { useTranscript } from '../../state/transcript-store'
import { useSessions } from '../../state/sessions-store'
import { CopyButton } from '../common/copy-button'
import { RewindButton } from '../changes/rewind-button'
import { LongText } from './long-text'
import { FileParts } from './file-parts'
import { MessageTime } from './message-time'
import { RunErrorCallout } from './run-error'
import { EditableUserText, RerunButton } from './message-actions'
import { StoppedMark } from './outcome-marks'
import { SubagentCard } from './subagent-card'
import { ToolCard } from './tool-card'
import { VersionNav } from './version-nav'

/** One message, selected from the store by id so only the message that changed re-renders. */
export const MessageView = memo(function MessageView({ sessionId, messageId, nested }: { sessionId: string; messageId: string; nested?: boolean }) {
  const m = useTranscript((s) => s.transcripts[sessionId]?.messages.get(messageId))
  // In a child session the prompts come from its caller (a parent agent): the person cannot edit or rewind those.
  const child = useSessions((s) => (s.byId[sessionId]?.parentId ?? null) !== null)
  // Copy and Regenerate once per answer, under its last step — not under every tool step on the way.
  const endsTurn = useTranscript((s) => {
    const t = s.transcripts[sessionId]
    const ids = t?.messageIds ?? []
    const next = ids[ids.indexOf(messageId) + 1]
    return next === undefined || t?.messages.get(next)?.role === 'user'
  })
  if (!m) return null
  const synthetic = m.metadata.synthetic === true
  if (synthetic) return <SyntheticCallout parts={m.parts} stoppedByUser={(m.metadata.task as { stoppedByUser?: unknown } | undefined)?.stoppedByUser === true} />
  if (m.metadata.notice === ERROR_NOTICE) return <RunErrorCallout sessionId={sessionId} messageId={messageId} error={m.metadata.error} parts={m.parts} nested={nested} />
  if (m.metadata.notice === 'command') return <CommandNotice parts={m.parts} />
  if (m.metadata.notice) return <NoticeCallout kind={String(m.metadata.notice)} parts={m.parts} />
  if (m.role === 'user') {
    const agent = typeof m.metadata.agent === 'string' ? m.metadata.agent : null
    // Sent to a run while it worked, read at its next step (the host writes who sent it: 'person' or 'agent').
    const steered = m.metadata.steered === 'agent' ? 'agent' : m.metadata.steered ? 'person' : null
    // A command (issue 27): what the person typed, with the prompt it became (what the model received) folded away.
    const command = CommandUse.safeParse(m.metadata.command)
    const typed = command.success ? `/${command.data.name}${command.data.args ? ` ${command.data.args}` : ''}` : null
    const text = typed ?? messageText(m.parts)
    // An edited message (issue 28): which of its versions this is, computed by the host.
    const versions = messageVersions(m.metadata)
    return (
      <div className={`msg msg-user ${nested ? 'nested' : ''}`} data-testid="message" data-role="user">
        {agent && <AgentTag name={agent} />}
        <EditableUserText sessionId={sessionId} messageId={messageId} text={text}>
          {(edit) => (
            <>
              <div className="bubble">
                {typed ? (
                  <div className="user-text" data-testid="command-use">{typed}</div>
                ) : (
                  m.parts.map((p) => (p.type === 'text' ? <LongText key={p.id} className="user-text" text={partText(p)} /> : null))
                )}
                <FileParts parts={m.parts} />
                {typed && messageText(m.parts) !== typed && (
                  <details className="command-expansion" data-testid="command-expansion">
                    <summary>Prompt sent</summary>
                    <div className="user-text">{messageText(m.parts)}</div>
                  </details>
                )}
              </div>
              {steered && <SteeredMarker from={steered} />}
              {!nested && (
                <div className="msg-actions">
                  {versions && <VersionNav sessionId={sessionId} messageId={messageId} versions={versions} />}
                  <MessageTime at={m.createdAt} />
                  <CopyButton text={() => text} label="Copy message" testId="copy-message" />
                  {(!child || steered === 'person') && (
                    <>
                      <button type="button" className="copy-btn" data-testid="edit-message" aria-label="Edit message" onClick={edit}>
                        Edit
                      </button>
                      <RewindButton sessionId={sessionId} messageId={messageId} />
                    </>
                  )}
                </div>
              )}
            </>
          )}
        </EditableUserText>
      </div>
    )
  }
  if (m.role === 'system') {
    return (
      <div className="msg msg-system muted small" data-testid="message" data-role="system">
        {m.parts.map((p) => partText(p)).join('\n')}
      </div>
    )
  }
  return (
    <div className={`msg msg-assistant ${nested ? 'nested' : ''}`} data-testid="message" data-role="assistant">
      {m.parts.map((p) => (
        <PartView key={p.id} part={p} />
      ))}
      {m.metadata.stopped === true && <StoppedMark />}
      {!nested && endsTurn && m.parts.some((p) => p.type === 'text' && partText(p)) && (
        <div className="msg-actions">
          <MessageTime at={m.createdAt} />
          <CopyButton text={() => messageText(m.parts)} label="Copy message" testId="copy-message" />
          <RerunButton sessionId={sessionId} messageId={messageId} label="Regenerate" testId="regenerate" />
        </div>
      )}
    </div>
  )
})

/** `metadata.notice` of a stored run error (the host's loop/transcript.ts writes it). */
const ERROR_NOTICE = 'error'

function SteeredMarker({ from }: { from: 'person' | 'agent' }) {
  return (
    <div className="steered-marker" data-testid="steered-marker" data-from={from}>
      {from === 'agent' ? 'sent by its caller while it was running' : 'sent while it was running'}
    </div>
  )
}

function AgentTag({ name }: { name: string }) {
  const info = useAgents((s) => s.byName[name])
  return (
    <div className="agent-tag" data-testid="message-agent">
      <span className="agent-dot" style={{ background: agentColor(name, info) }} />
      to {name}
    </div>
  )
}

function PartView({ part }: { part: PartRecord }) {
  if (part.type === 'text') return <div className="part-text" data-testid="part-text"><Markdown text={partText(part)} /></div>
  if (part.type === 'reasoning') return <Reasoning text={partText(part)} />
  const tool = toolName(part)
  if (tool === 'task') return <SubagentCard part={part} />
  if (tool) return <ToolCard part={part} />
  // data-* parts carry host bookkeeping (step markers, usage); nothing a person needs to read.
  return null
}

function Reasoning({ text }: { text: string }) {
  const [open, setOpen] = useState(false)
  return (
    <div className="reasoning" data-testid="reasoning">
      <button className="reasoning-head" onClick={() => setOpen(!open)} aria-expanded={open}>
        <span className="caret" aria-hidden>{open ? '▾' : '▸'}</span> Thinking
        {!open && <span className="reasoning-preview">{text.slice(-120)}</span>}
      </button>
      {open && (
        <div className="reasoning-body">
          <Markdown text={text} />
        </div>
      )}
    </div>
  )
}

/** A host notice (e.g. "the previous run was interrupted by a restart"): not the model talking. */
const NOTICE_TITLE: Record<string, string> = { rules_malformed: 'Permission rules file not used' }

/** What a command did by itself: its `!` shell lines (tool cards, with their approvals), `/help`'s list. */
function CommandNotice({ parts }: { parts: PartRecord[] }) {
  return (
    <div className="callout info command-notice" data-testid="command-notice">
      {parts.map((p) => (p.type === 'text' ? <Markdown key={p.id} text={partText(p)} /> : <PartView key={p.id} part={p} />))}
    </div>
  )
}

function NoticeCallout({ kind, parts }: { kind: string; parts: PartRecord[] }) {
  return (
    <div className="callout warn" data-testid="notice-callout" data-notice={kind}>
      <div className="callout-title">{NOTICE_TITLE[kind] ?? 'Run interrupted'}</div>
      {parts.map(partText).join('\n')}
    </div>
  )
}

/** A synthetic message (a background child's completion) is not the model talking: show it as a callout. */
function SyntheticCallout({ parts, stoppedByUser }: { parts: PartRecord[]; stoppedByUser: boolean }) {
  const text = parts.map(partText).join('\n')
  const result = splitTaskResults(text).find((s) => s.kind === 'task')
  const failed = result?.kind === 'task' && result.failed
  // `aborted: <why>` — stopped by the person, a timeout, a parent's abort or a restart, rather than a failure of its own
  const stopped = failed && result.body.trim().startsWith('aborted:')
  const incomplete = result?.kind === 'task' && result.incomplete
  return (
    <div
      className={`callout ${stopped && stoppedByUser ? 'stopped' : failed ? 'error' : 'info'}`}
      data-testid="synthetic-callout"
      data-outcome={stopped ? 'aborted' : failed ? 'failed' : 'completed'}
      data-stopped={stopped && stoppedByUser ? 'user' : undefined}
    >
      <div className="callout-title">
        {result?.kind === 'task'
          ? `Background task ${stopped && stoppedByUser ? 'stopped by you' : stopped ? 'stopped' : failed ? 'failed' : incomplete ? 'stopped before it finished' : 'finished'}: ${result.agent}`
          : 'Note from the host'}
      </div>
      {result?.kind === 'task' ? (
        <>
          <Markdown text={result.body} />
          {result.stats && <div className="small">{result.stats}</div>}
        </>
      ) : (
        <Markdown text={text} />
      )}
    </div>
  )
}
