import { useEffect, useLayoutEffect, useRef } from 'react'
import { agentColor, useAgents } from '../../state/agents-store'
import { useRunMap } from '../../state/run-map-store'
import { loadChild } from '../../state/session-actions'
import { useTranscript } from '../../state/transcript-store'
import { NestedTranscriptView } from '../transcript/nested-transcript-view'

/**
 * An opaque child's transcript, in the transcript's place while the run map is open: it has no session to open, so
 * what its card nests is shown here, live. "Back" returns to the conversation.
 */
export function RunNodeTranscript({ id }: { id: string }) {
  const node = useRunMap((s) => s.nodes[id])
  const parent = useRunMap((s) => (node?.parentId ? s.nodes[node.parentId] : undefined))
  const info = useAgents((s) => (node ? s.byName[node.agentType] : undefined))
  // The whole transcript object: it is replaced whenever something in it changes, so this pane follows the stream.
  const transcript = useTranscript((s) => s.transcripts[id])
  const known = transcript !== undefined
  const scroller = useRef<HTMLDivElement>(null)
  const atEnd = useRef(true)

  // A grandchild of an inspectable child is nested in that child's own session: load it to find this one.
  useEffect(() => {
    if (!known && parent?.inspectable && parent.parentId !== null) void loadChild(parent.id)
  }, [known, parent])

  // Follow the newest message while the person has not scrolled up (the child may still be running).
  useLayoutEffect(() => {
    const el = scroller.current
    if (el && atEnd.current) el.scrollTop = el.scrollHeight
  }, [transcript])

  if (!node) return null
  return (
    <div className="transcript-pane run-node-pane" data-testid="run-node-transcript" data-node-id={id}>
      <div className="transcript-head">
        <nav className="breadcrumb" aria-label="Where this agent runs">
          <span className="crumb">
            <button className="link-btn" data-testid="run-node-back" onClick={() => useRunMap.setState({ shown: null })}>
              Back to the conversation
            </button>
            <span className="sep" aria-hidden>›</span>
          </span>
          {parent && <span className="crumb">{parent.agentType}<span className="sep" aria-hidden>›</span></span>}
          <span className="crumb current">{node.agentType}</span>
        </nav>
        <div className="title-row">
          <span className="agent-dot lg" style={{ background: agentColor(node.agentType, info) }} />
          <h1 className="session-heading" data-testid="run-node-heading">{node.label || node.agentType}</h1>
          <span className="muted nowrap">{node.agentType}</span>
          <span className="spacer" />
          <span className={`pill status-${node.status}`} data-testid="run-node-transcript-status">{node.status}</span>
        </div>
      </div>
      <div
        ref={scroller}
        className="run-node-scroll"
        data-testid="run-node-messages"
        tabIndex={0}
        aria-label={`Transcript of ${node.agentType}`}
        onScroll={(e) => {
          const el = e.currentTarget
          atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24
        }}
      >
        <NestedTranscriptView sessionId={id} />
      </div>
    </div>
  )
}
