// Public API of the agent harness. Other services import only from here.

export {
  type ApprovalDecision,
  type AutoApprove,
  createApprovalGate,
  DENIED_BY_USER,
  policyFor,
} from './approvals'
export { attachmentHandlers } from './attachments/attachmentHandlers'
export type { AttachmentConverter } from './attachments/converterPort'
export { INBOX_DIR } from './attachments/inboxName'
export { shareConversions } from './attachments/sharedConversions'
export { createConversationStore } from './conversations/conversationStore'
export { runAgent } from './runAgent'
export { type ActiveRunBase, activeRuns } from './service/activeRuns'
export { chatHandlers } from './service/chatHandlers'
export { createAppChat } from './service/createAppChat'
export type { ChatService } from './service/createChatService'
export { historyOf } from './service/historyOf'
export type {
  UnattendedDecision,
  UnattendedLevel,
  UnattendedRunInput,
  UnattendedRunResult,
} from './service/unattendedRun'
export type { AgentAttachment, AgentEvent, AgentResult, AgentStatus, AgentUsage, HistoryTurn } from './types'
