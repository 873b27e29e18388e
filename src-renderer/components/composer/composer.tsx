import { useEffect, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react'
import { flushSync } from 'react-dom'
import { pendingForRoot, useApprovals } from '../../state/approvals-store'
import type { UiError } from '../../state/ui-error'
import { chipAgentNow } from '../../state/chip-agent'
import { lastUserText } from '../../state/transcript-model'
import { abortRun, cancelQueued, sendPrompt } from '../../state/session-actions'
import { useTranscript } from '../../state/transcript-store'
import { followLatest, useUi } from '../../state/ui-store'
import { AgentPicker } from './agent-picker'
import { CommandMenu } from './command-menu'
import { RecipientChip, useMentionMenu, type MentionPick } from './mention-menu'
import { messageChild } from '../../state/mention-actions'
import type { MentionChild } from '../../state/mentions'
import { commandMatches, loadCommands, runAppCommand, useCommands } from '../../state/commands-store'
import { ErrorNote } from '../common/error-note'
import { ModelPicker } from './model-picker'
import { PasteChips } from './paste-chips'
import { AttachmentChips } from './attachment-chips'
import { useAttachments } from './use-attachments'
import { toPromptAttachments } from '../../state/attachments'
import { expandPastes, pasteToken, shouldCollapse } from '../../state/pasted-text'
import { isRunning } from '../../state/session-status'
import { notConnected, useConnection } from '../../state/connection-store'

const EMPTY: never[] = []
const WAITING = { tool: 'An approval is waiting', plan: 'A plan waits for your OK', question: 'A question is waiting for your answer', budget: 'A budget question is waiting' } as const

/**
 * Multi-line input: Enter sends, Shift+Enter breaks the line, `/` at the start completes commands, `@` mentions a
 * file, a running child (the message goes to it) or an agent type (mention-menu.tsx), ↑ in an empty box
 * brings back the last message, Esc in an empty box stops a running turn; Stop/Queue while running.
 */
export function Composer({ autoFocus }: { autoFocus?: boolean }) {
  const viewId = useTranscript((s) => s.viewId)
  const rootId = useTranscript((s) => s.rootId)
  const status = useTranscript((s) => (viewId ? (s.transcripts[viewId]?.status ?? null) : null))
  const queue = useTranscript((s) => (viewId ? (s.queue[viewId] ?? EMPTY) : EMPTY))
  // What waits above, in its own words: a question is not an approval (issue 28).
  const waitingKind = useApprovals((s) => pendingForRoot(s.pending, rootId)[0]?.kind ?? null)
  const [text, setText] = useState('')
  const [error, setError] = useState<UiError | null>(null)
  const [sending, setSending] = useState(false)
  const [caret, setCaret] = useState(0)
  const [pick, setPick] = useState(0)
  // Long pastes, kept whole behind a token in the box (see pasted-text.ts).
  const [pastes, setPastes] = useState<Map<number, string>>(() => new Map())
  const area = useRef<HTMLTextAreaElement>(null)
  // Images and text files sent with the message (pasted, dropped, picked; see use-attachments.tsx).
  const attachments = useAttachments(setError)
  const lastSent = useRef<string | null>(null)
  const running = isRunning(status)
  // The conversation's own turn may be over while its background children still work: Stop ends those too.
  const background = useTranscript((s) => s.viewId !== null && s.viewId === s.rootId && Object.values(s.tasks).some((t) => t.status === 'running' || t.status === 'queued'))

  // `@`: files, running children, agent types (mention-menu.tsx); a picked child is who the message goes to.
  const [to, setTo] = useState<MentionChild | null>(null)
  const onMention = (r: MentionPick) => {
    flushSync(() => setText(r.text))
    area.current?.setSelectionRange(r.caret, r.caret)
    setCaret(r.caret)
    if (r.to) setTo(r.to)
  }
  const mentions = useMentionMenu(text, caret, onMention)
  useEffect(() => setTo(null), [viewId])
  const mention = mentions.mention
  // `/name` at the very start, the caret still in the name: the command list (closed by Esc until the name changes).
  const commands = useCommands((s) => s.commands)
  const slash = useMemo(() => (caret >= 0 ? /^\/([\w.:-]*)$/.exec(text.slice(0, caret)) : null), [text, caret])
  const [slashClosed, setSlashClosed] = useState<string | null>(null)
  const slashOpen = slash !== null && slashClosed !== slash[1]
  const commandList = useMemo(() => (slashOpen ? commandMatches(commands, slash[1]) : []), [slashOpen, slash?.[1], commands])
  const slashing = commandList.length > 0 && !mention
  const completing = slashing
  const menuLength = commandList.length

  useEffect(() => setPick(0), [slash?.[1]])
  // The list is read when `/` opens it, so a command file added a moment ago is offered.
  useEffect(() => {
    if (slash?.[1] === '') void loadCommands()
  }, [slash?.[1] === ''])
  useEffect(() => {
    const el = area.current
    if (!el) return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, 240)}px`
  }, [text])
  useEffect(() => {
    if (autoFocus) area.current?.focus()
  }, [autoFocus, viewId])
  // Text handed to the box from elsewhere (a rewound message comes back here to be edited and sent again).
  const fill = useUi((s) => s.composerFill)
  useEffect(() => {
    if (!fill) return
    const { ifText } = fill
    if (ifText !== undefined && text !== ifText) return
    const next = fill.append && text.trim() ? `${text.replace(/\s+$/, '')}\n\n${fill.text}` : fill.text
    setText(next)
    if (fill.attachments) attachments.restore(fill.attachments)
    requestAnimationFrame(() => {
      area.current?.focus()
      area.current?.setSelectionRange(next.length, next.length)
    })
    // Only a new fill (its tick) applies: typing afterwards must not re-run it.
  }, [fill?.tick])

  const completeCommand = (name: string) => {
    const rest = text.slice(caret).replace(/^\S*/, '')
    const next = `/${name}${rest.startsWith(' ') ? rest : ` ${rest}`}`
    const pos = name.length + 2
    flushSync(() => setText(next))
    area.current?.setSelectionRange(pos, pos)
    setCaret(pos)
  }

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    // A screenshot or a copied file: attached (a copied file's name may come as text too, which is left out).
    if (e.clipboardData.files.length) {
      e.preventDefault()
      return void attachments.add([...e.clipboardData.files])
    }
    const pasted = e.clipboardData.getData('text/plain')
    if (!shouldCollapse(pasted)) return
    e.preventDefault()
    const id = Math.max(0, ...pastes.keys()) + 1
    const token = pasteToken(id, pasted)
    const el = e.currentTarget
    const next = `${text.slice(0, el.selectionStart)}${token}${text.slice(el.selectionEnd)}`
    const pos = el.selectionStart + token.length
    setPastes((m) => new Map(m).set(id, pasted))
    flushSync(() => setText(next))
    area.current?.setSelectionRange(pos, pos)
    setCaret(pos)
  }

  const send = async () => {
    const t = expandPastes(text, pastes).trim()
    const files = attachments.files
    if ((!t && !files.length) || sending) return
    // Down, a call would wait for a connection that may not come back: say so, and keep the message here.
    const link = useConnection.getState().state
    if (link !== 'open') return setError(notConnected(link))
    if (to && files.length) return setError({ context: 'Sending', message: `Files go to the conversation, not to ${to.agentType}.`, hint: 'Remove the files, or the "To" chip to send them to the conversation.' })
    if (to) return void steerChild(t, to)
    setSending(true)
    setError(null)
    // `/clear`, `/agents`, `/model`: actions of this window, not messages (the host would refuse them).
    const action = files.length ? null : await runAppCommand(t)
    if (action) {
      setSending(false)
      if (action.error) return setError(action.error)
      setText('')
      return
    }
    followLatest()
    const err = await sendPrompt(t, chipAgentNow(), toPromptAttachments(files))
    setSending(false)
    // A refused `/command` says all there is to say (the close matches, /help); the generic hint would mislead.
    if (err) return setError(t.startsWith('/') && /^(Unknown command|\/\S+ (is an action|names agent))/.test(err.message) ? { ...err, hint: '' } : err)
    lastSent.current = t
    setText('')
    setPastes(new Map())
    attachments.clear()
  }

  // A message for the running child picked in the `@` menu: steered to it; one that ended meanwhile says so, the text stays.
  const steerChild = async (t: string, child: MentionChild) => {
    setSending(true)
    setError(null)
    const err = await messageChild(child, t)
    setSending(false)
    if (err) return setError(err)
    lastSent.current = t
    setText('')
    setPastes(new Map())
    setTo(null)
  }

  const stop = async () => {
    if (viewId) setError(await abortRun(viewId))
  }

  const recall = (): boolean => {
    const st = useTranscript.getState()
    const previous = (st.viewId ? lastUserText(st.transcripts[st.viewId]) : null) ?? lastSent.current
    if (!previous) return false
    // The text is in the field, and the caret at its end, before the key event returns: a caret placed a frame later
    // collapsed a selection made in between (select all, then type: the typing was appended instead).
    flushSync(() => setText(previous))
    area.current?.setSelectionRange(previous.length, previous.length)
    return true
  }

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!slashing && mentions.onKey(e)) return
    if (completing) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault()
        setPick((p) => (p + (e.key === 'ArrowDown' ? 1 : menuLength - 1)) % menuLength)
        return
      }
      if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
        // Enter on a command already typed in full sends it; Tab (or Enter on a partial name) completes.
        const picked = slashing ? (commandList[pick] ?? commandList[0]).name : null
        if (slashing && e.key === 'Enter' && slash?.[1] === picked) return void (e.preventDefault(), send())
        e.preventDefault()
        if (picked) completeCommand(picked)
        return
      }
      if (e.key === 'Escape') {
        e.preventDefault()
        setSlashClosed(slash?.[1] ?? null)
        return
      }
    }
    if (e.key === 'ArrowUp' && text === '' && !e.shiftKey && !e.altKey && !e.metaKey && !e.ctrlKey) {
      if (recall()) e.preventDefault()
      return
    }
    if (e.key === 'Escape' && text === '' && running) {
      e.preventDefault()
      void stop()
      return
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      void send()
    }
  }

  return (
    <div className="composer-wrap">
      {queue.length > 0 && viewId && (
        <div className="queue" data-testid="queue">
          {queue.map((q) => (
            <div key={q.id} className="queue-item" data-testid="queue-item">
              <span className="pill">queued</span>
              <span className="queue-text">{q.text}</span>
              <button className="btn small" data-testid="queue-cancel" onClick={async () => setError(await cancelQueued(viewId, q.id))}>
                Cancel
              </button>
            </div>
          ))}
        </div>
      )}
      {error && <ErrorNote error={error} onDismiss={() => setError(null)} testId="composer-error" />}
      <div className={`composer ${attachments.dropping ? 'dropping' : ''}`} data-testid="composer" {...attachments.dropProps}>
        {slashing && <CommandMenu commands={commandList} pick={pick} onPick={completeCommand} />}
        {!slashing && mentions.menu}
        {to && <RecipientChip to={to} onRemove={() => setTo(null)} />}
        <textarea
          ref={area}
          className="composer-input"
          data-testid="composer-input"
          aria-label="Message"
          rows={1}
          placeholder={to ? `Message ${to.agentType} — read at its next step` : running ? 'Agent is working — your message will be queued…' : 'Message the agent — / for commands, @ to mention a file or address a subagent'}
          value={text}
          onChange={(e) => {
            setText(e.target.value)
            setCaret(e.target.selectionStart)
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKey}
          onPaste={onPaste}
        />
        <PasteChips text={text} pastes={pastes} onText={setText} />
        <AttachmentChips files={attachments.files} onRemove={attachments.remove} />
        <div className="composer-bar">
          {attachments.picker}
          <AgentPicker />
          <ModelPicker />
          <span className="hint" data-testid="composer-hint">
            {waitingKind ? `${WAITING[waitingKind]} above — Shift+Tab to reach it` : to ? `Enter sends it to ${to.agentType}` : running ? 'Esc to stop · Enter to queue' : 'Enter to send · Shift+Enter for a new line'}
          </span>
          <span className="spacer" />
          {(running || background) && viewId && (
            <button className="btn danger" data-testid="stop-button" title={running ? 'Stop the run and every subagent' : 'Stop the background subagents'} onClick={() => void stop()}>
              ■ Stop
            </button>
          )}
          <button className="btn primary" data-testid="send-button" disabled={(!text.trim() && !attachments.files.length) || sending} onClick={() => void send()}>
            {running && !to ? 'Queue' : 'Send'}
          </button>
        </div>
      </div>
    </div>
  )
}
