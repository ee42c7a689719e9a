// Public API of the agent harness. Other services import only from here.

export type { AttachmentConverter, ConvertedAttachment } from './attachments/converterPort'
export { INBOX_DIR } from './attachments/inboxName'
export {
  DEFAULT_ATTACHMENT_BUDGET,
  type PreparedAttachments,
  prepareAttachments,
} from './attachments/prepareAttachments'
export { CHAT_SYSTEM_PROMPT, type ChatStreamOptions, streamChat } from './chatStream'
export {
  type ConversationStore,
  type ConversationStoreOptions,
  createConversationStore,
} from './conversations/conversationStore'
export { DONE_TOOL, LAUNCH_SUBAGENT_TOOL, PROVIDE_SUBAGENT_INPUT_TOOL } from './loop/agentTools'
export { REPEATED_FAILURE_LIMIT } from './loop/failureTracker'
export { composeSystemPrompt, type SystemPromptOptions } from './prompt/composeSystemPrompt'
export { delegationLines } from './prompt/stepsBlock'
export { type AgentRun, DEFAULT_MAX_ITERATIONS, runAgent, startAgent } from './runAgent'
export { chatHandlers } from './service/chatHandlers'
export { type AppChatOptions, createAppChat } from './service/createAppChat'
export {
  type ChatEventSink,
  type ChatService,
  type ChatServiceOptions,
  createChatService,
} from './service/createChatService'
export { historyOf } from './service/historyOf'
export type { SubagentReply } from './subagents/subagentManager'
export type {
  AgentAttachment,
  AgentEvent,
  AgentResult,
  AgentStatus,
  AgentUsage,
  HistoryTurn,
  RunAgentOptions,
  ToolProtocol,
} from './types'
