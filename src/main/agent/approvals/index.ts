export {
  type ApprovalDecision,
  type ApprovalGateOptions,
  type ApprovalLogEntry,
  createApprovalGate,
  DENIED_BY_USER,
} from './gate'
export { withGrant } from './grants'
export { maskArgs } from './maskArgs'
export { type AutoApprove, autoDecision, policyFor, ruleKey } from './policy'
