/** The edit tools' diff is the shared one (jsdiff), so the approval, the tool result and the UI agree line for line. */
export { unifiedDiff } from '../../src-shared/diff'
