export { Approvals, ApprovalError } from './approvals'
export type { ApprovalAnswer, ApprovalRequest, AnswerInput, ApprovalKind, GrantForRun, ResumeHook } from './approvals'
