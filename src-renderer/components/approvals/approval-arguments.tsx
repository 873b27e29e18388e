import type { ApprovalRecord } from '../../../src-shared'
import { Markdown } from '../../markdown'
import { approvalArgs } from '../../state/approval-data'
import { plainWhy } from '../../state/approval-words'
import { DiffView } from '../common/diff-view'

/**
 * What a tool call or a plan would do, as the person decides on it: the command line (one line per sub-command), the
 * host's diff for edits and overwrites, the plan, or the input. Shared by the conversation's panel and the inbox.
 */
export function ToolDetails({ approval: a }: { approval: ApprovalRecord }) {
  const { protectedWrite } = approvalArgs(a)
  return (
    <>
      {protectedWrite && (
        <div className="callout warn" data-testid="approval-protected">
          <div className="callout-title">This changes what agents may do</div>
          <code>{protectedWrite.path}</code>: {protectedWrite.reason}. It can be allowed once, never always.
        </div>
      )}
      <ApprovalArguments approval={a} />
    </>
  )
}

function ApprovalArguments({ approval: a }: { approval: ApprovalRecord }) {
  const { input, summary, diff, reason } = approvalArgs(a)
  const str = (k: string): string | undefined => (typeof input[k] === 'string' ? (input[k] as string) : undefined)
  let body
  if (a.toolName === 'bash' && str('command') !== undefined) {
    body = (
      <>
        <pre className="command" data-testid="approval-command">$ {str('command')}</pre>
        {a.patterns.length > 1 && (
          <ul className="subcommands" aria-label="Sub-commands" data-testid="approval-subcommands">
            {a.patterns.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        )}
      </>
    )
  } else if (diff !== null) body = <DiffView path={str('path')} unified={diff} testId="approval-diff" />
  else if (a.toolName === 'edit_file') body = <DiffView path={str('path')} before={str('old_string') ?? ''} after={str('new_string') ?? ''} testId="approval-diff" />
  else if (a.toolName === 'write_file') body = <DiffView path={str('path')} before="" after={(str('content') ?? '').slice(0, 200_000)} testId="approval-diff" />
  else if (a.toolName === 'plan_exit' && str('plan') !== undefined) body = <div className="plan"><Markdown text={str('plan') ?? ''} /></div>
  else if (str('path') !== undefined && Object.keys(input).length <= 3) body = <pre className="command">{str('path')}</pre>
  else body = <pre className="tool-input">{JSON.stringify(input, null, 2)}</pre>
  return (
    <div className="approval-args" data-testid="approval-arguments">
      {summary && a.toolName !== 'bash' && <div className="approval-summary">{summary}</div>}
      {body}
      {a.patterns.length > 0 && a.toolName !== 'bash' && (
        <div className="muted small">
          Matched: <code>{a.patterns.join(', ')}</code>
        </div>
      )}
      {reason && (
        <div className="muted small" data-testid="approval-reason">
          Why you are asked: {plainWhy(reason)}
        </div>
      )}
    </div>
  )
}
