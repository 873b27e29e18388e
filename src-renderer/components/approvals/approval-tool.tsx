import type { ApprovalRecord } from '../../../src-shared'
import { ToolDetails } from './approval-arguments'
import { ApprovalShell } from './approval-shell'
import { ToolAnswerControls, toolTitle, useToolAnswer } from './tool-answer'

/** A tool call or a plan waiting for the person: what it will do, and Allow once / Always allow / Deny. */
export function ToolApproval({ approval: a, more }: { approval: ApprovalRecord; more: number }) {
  const t = useToolAnswer(a)
  return (
    <ApprovalShell approval={a} more={more} title={toolTitle(a)} testId="approval-dialog" onEnter={t.mode === 'main' ? () => void t.answer('allow_once') : undefined}>
      <ToolDetails approval={a} />
      <ToolAnswerControls approval={a} t={t} enterKey />
    </ApprovalShell>
  )
}
