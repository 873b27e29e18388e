import { useEffect, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react'
import { agentColor, addressable, useAgents } from '../../state/agents-store'
import { findFiles, type FoundFiles } from '../../state/mention-actions'
import { applyMention, childrenFromKey, childrenKey, mentionAt, mentionOptions, runningChildren, type MentionChild, type MentionOption } from '../../state/mentions'
import { useRunMap } from '../../state/run-map-store'
import { useTranscript, type TranscriptStoreState } from '../../state/transcript-store'

/** What a pick did: the new text and caret, and — for a running child — who the message now goes to. */
export type MentionPick = ReturnType<typeof applyMention>

/** A key for the running children of the conversation on screen (a string, so a frame of streaming re-renders nothing). */
function runningKey(s: TranscriptStoreState): string {
  const map = useRunMap.getState()
  return childrenKey(runningChildren({ viewId: s.viewId, rootId: s.rootId, transcript: s.viewId ? s.transcripts[s.viewId] : undefined, tasks: s.tasks, runMap: map }))
}

/** The running children of the conversation on screen (live: the run map's and the transcript's). */
export function useRunningChildren(enabled = true): MentionChild[] {
  useRunMap((s) => (enabled ? s.nodes : null))
  const key = useTranscript((s) => (enabled ? runningKey(s) : ''))
  return useMemo(() => childrenFromKey(key), [key])
}

/**
 * The composer's `@` menu (issue 28): the `@token` before the caret, the options it offers (running children, agent
 * types, then files the host fuzzy-matched), the picked one, and the keys (↑/↓ move, Tab/Enter pick, Esc closes
 * until the token changes). `onPick` receives the new text and caret (and a child the message is now for).
 */
export function useMentionMenu(text: string, caret: number, onPick: (r: MentionPick) => void) {
  const mention = useMemo(() => mentionAt(text, caret), [text, caret])
  const agents = useAgents((s) => s.agents)
  const children = useRunningChildren(mention !== null)
  const query = mention?.query ?? null
  const [found, setFound] = useState<{ query: string } & FoundFiles>({ query: '', files: [], truncated: false })
  const [pick, setPick] = useState(0)
  const [closed, setClosed] = useState<string | null>(null)
  const token = mention ? `${mention.start}:${mention.query}` : null

  // Files for what is typed, a moment after the last key (the host lists the workspace once, then matches in memory).
  useEffect(() => {
    if (!query) return
    let live = true
    const timer = setTimeout(() => {
      void findFiles(query).then((r) => {
        if (live) setFound({ query, ...r })
      })
    }, 60)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [query])
  useEffect(() => setPick(0), [token])

  const options = useMemo(
    () => (mention ? mentionOptions(mention.query, { files: found.query === mention.query ? found.files : [], children, agents: addressable(agents) }) : []),
    [mention, found, children, agents],
  )
  const open = options.length > 0 && closed !== token
  const current = Math.min(pick, Math.max(0, options.length - 1))

  const choose = (option: MentionOption) => {
    if (mention) onPick(applyMention(text, mention, option))
  }

  /** The composer's key handler asks first: true when the menu took the key. */
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || e.nativeEvent.isComposing) return false
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      setPick((current + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length)
      return true
    }
    if (e.key === 'Tab' || (e.key === 'Enter' && !e.shiftKey)) {
      e.preventDefault()
      choose(options[current])
      return true
    }
    if (e.key === 'Escape') {
      e.preventDefault()
      setClosed(token)
      return true
    }
    return false
  }

  const menu = open ? <MentionMenu options={options} pick={current} onPick={choose} truncated={found.truncated && found.query === query} /> : null
  return { mention, open, onKey, menu }
}

const GROUPS = { child: 'Running now — message it', agent: 'Subagents', file: 'Files' } as const

/** The options in their groups, the picked one highlighted; a click picks (the input keeps focus). */
export function MentionMenu({ options, pick, onPick, truncated }: { options: MentionOption[]; pick: number; onPick(o: MentionOption): void; truncated?: boolean }) {
  const agents = useAgents((s) => s.agents)
  const option = (o: MentionOption, i: number) => (
    <div
      key={o.key}
      role="option"
      aria-selected={i === pick}
      data-testid={`mention-${o.kind}`}
      className={`agent-option ${i === pick ? 'current' : ''}`}
      ref={i === pick ? (el) => el?.scrollIntoView({ block: 'nearest' }) : undefined}
      onMouseDown={(e) => {
        e.preventDefault()
        onPick(o)
      }}
    >
      {o.kind === 'file' ? (
        <>
          <span className="mention-icon" aria-hidden="true">
            ▤
          </span>
          <span className="agent-option-text">
            <span className="mention-file-path">{highlight(o.path, o.positions)}</span>
          </span>
        </>
      ) : o.kind === 'child' ? (
        <>
          <span className="agent-dot" style={{ background: agentColor(o.child.agentType, agents.find((a) => a.name === o.child.agentType)) }} />
          <span className="agent-option-text">
            <span className="mention-child-name">{o.child.agentType}</span>
            <span className="agent-option-desc">{o.child.label || 'running'}</span>
          </span>
        </>
      ) : (
        <>
          <span className="agent-dot" style={{ background: agentColor(o.agent.name, o.agent) }} />
          <span className="agent-option-text">
            <span className="agent-option-name">@{o.agent.name}</span>
            <span className="agent-option-desc">{o.agent.description}</span>
          </span>
        </>
      )}
    </div>
  )
  // One group per kind, in the order the options come (role=group, labelled by its heading).
  const groups: { kind: MentionOption['kind']; rows: ReactNode[] }[] = []
  options.forEach((o, i) => {
    if (groups.at(-1)?.kind !== o.kind) groups.push({ kind: o.kind, rows: [] })
    groups.at(-1)!.rows.push(option(o, i))
  })
  return (
    <div className="popover mention-menu" data-testid="mention-menu" role="listbox" aria-label="Mention a file, a running agent or a subagent">
      {groups.map((g) => (
        <div key={g.kind} role="group" aria-labelledby={`mention-group-${g.kind}`}>
          <div className="popover-label mention-group" id={`mention-group-${g.kind}`}>
            {GROUPS[g.kind]}
            {g.kind === 'file' && truncated ? ' (large workspace: not every file searched)' : ''}
          </div>
          {g.rows}
        </div>
      ))}
    </div>
  )
}

/** The path with its matched characters in bold; the folder part muted. */
function highlight(path: string, positions: number[]): ReactNode {
  const hit = new Set(positions)
  const slash = path.lastIndexOf('/')
  const out: ReactNode[] = []
  let run = ''
  let runHit = false
  let runDir = false
  const flush = (i: number) => {
    if (!run) return
    const cls = `${runDir ? 'mention-file-dir' : ''}${runHit ? ' mention-hit' : ''}`.trim()
    out.push(runHit || runDir ? <span key={i} className={cls}>{run}</span> : run)
    run = ''
  }
  for (let i = 0; i < path.length; i++) {
    const h = hit.has(i)
    const dir = i <= slash
    if (h !== runHit || dir !== runDir) flush(i)
    runHit = h
    runDir = dir
    run += path[i]
  }
  flush(path.length)
  return out
}

/** Who the message goes to after a running child was picked: × sends it to the conversation again. */
export function RecipientChip({ to, onRemove }: { to: MentionChild; onRemove(): void }) {
  const running = useRunningChildren().some((c) => c.id === to.id)
  return (
    <div className="paste-chips mention-to-row">
      <span className={`paste-chip mention-to ${running ? '' : 'ended'}`} data-testid="mention-to" data-running={running}>
        <span className="paste-chip-label">
          To: <strong>{to.agentType}</strong>
          {to.label ? ` · ${to.label}` : ''}
          {running ? ' — read at its next step' : ' — has ended'}
        </span>
        <button type="button" className="btn small" data-testid="mention-to-remove" aria-label={`Send to the conversation, not ${to.agentType}`} onClick={onRemove}>
          ×
        </button>
      </span>
    </div>
  )
}
