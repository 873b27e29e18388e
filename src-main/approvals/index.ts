export { Approvals, ApprovalError } from './approvals'
export type { ApprovalAnswer, ApprovalRequest, AnswerInput, ApprovalKind, ResumeHook } from './approvals'
