import { useState } from 'react'
import type { RunNode } from '../../../src-shared'
import { steerRun } from '../../state/run-map-actions'
import type { UiError } from '../../state/ui-error'

type Sent = { state: 'idle' } | { state: 'sending' } | { state: 'sent' } | { state: 'error'; error: UiError }

/**
 * A message for a running agent, typed in its row: Enter sends it, and the agent reads it as the person's before its
 * next model call. Esc closes the box and gives focus back to the row. It stays open if the agent ends meanwhile: the
 * draft is kept, and sending it shows why the host refused (there is no next step to give it to).
 */
export function RunMessageBox({ node, onClose }: { node: RunNode; onClose: () => void }) {
  const [text, setText] = useState('')
  const [sent, setSent] = useState<Sent>({ state: 'idle' })
  const send = async () => {
    const t = text.trim()
    if (!t || sent.state === 'sending') return
    setSent({ state: 'sending' })
    const error = await steerRun(node.id, t)
    if (error) return setSent({ state: 'error', error })
    setText('')
    setSent({ state: 'sent' })
  }
  const close = (box: HTMLElement) => {
    const row = box.closest<HTMLElement>('[role=treeitem]')
    onClose()
    row?.focus()
  }
  return (
    // The row below is a tree item: clicks and keys typed here stay here.
    <div className="run-message" data-testid="run-message" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
      <input
        className="input"
        autoFocus
        data-testid="run-message-input"
        aria-label={`Message for ${node.agentType} (${node.label}), read at its next step`}
        placeholder={node.status === 'running' ? `Tell ${node.agentType} something… (Enter sends)` : `${node.agentType} is no longer running`}
        value={text}
        disabled={sent.state === 'sending'}
        onChange={(e) => {
          setText(e.target.value)
          if (sent.state !== 'sending') setSent({ state: 'idle' })
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            void send()
          } else if (e.key === 'Escape') {
            e.preventDefault()
            close(e.currentTarget)
          }
        }}
      />
      <span className="run-message-state" data-testid="run-message-state" role="status" data-state={sent.state}>
        {sent.state === 'sending' ? 'Sending…' : sent.state === 'sent' ? 'Delivered at its next step' : sent.state === 'error' ? `${sent.error.message}` : ''}
      </span>
    </div>
  )
}
