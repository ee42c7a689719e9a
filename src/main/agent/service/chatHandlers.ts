import type { ApprovalDecision } from '../../../shared/ipc'
import type { ChatService } from './createChatService'

/** The IPC handlers of the chat and conversations routes, over the chat service. */
export function chatHandlers(chat: ChatService) {
  return {
    'chat.send': (input: Parameters<ChatService['send']>[0]) => chat.send(input),
    'chat.cancel': (input: { runId: string }) => ({ cancelled: chat.cancel(input.runId) }),
    'chat.answer': (input: { runId: string; sessionId?: string | undefined; input: string }) => ({
      accepted: chat.answer(input.runId, input.input, input.sessionId),
    }),
    'chat.approve': (input: { runId: string; approvalId: string; decision: ApprovalDecision }) => ({
      accepted: chat.approve(input.runId, input.approvalId, input.decision),
    }),
    'conversations.list': (input?: { query?: string | undefined }) => chat.list(input?.query),
    'conversations.get': (input: { id: string }) => chat.get(input.id),
    'conversations.rename': (input: { id: string; title: string }) => chat.rename(input.id, input.title),
    'conversations.delete': async (input: { id: string }) => ({ deleted: await chat.delete(input.id) }),
  }
}
