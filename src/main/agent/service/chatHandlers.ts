import {
  exportFileName,
  parseExportJson,
  toExportJson,
  toMarkdown,
} from '../../../shared/chat/conversationExport'
import { AppError } from '../../../shared/errors'
import type { ApprovalDecision } from '../../../shared/ipc'
import { customInstructionsSection } from '../instructions/customInstructions'
import { countTokens } from '../instructions/tokenCount'
import type { ConversationChange } from './conversationEdits'
import type { ChatService, MessageRef } from './createChatService'

/** The IPC handlers of the chat and conversations routes, over the chat service. */
export function chatHandlers(chat: ChatService) {
  return {
    'chat.send': (input: Parameters<ChatService['send']>[0]) => chat.send(input),
    'chat.regenerate': (input: MessageRef) => chat.regenerate(input),
    'chat.edit': (input: MessageRef & { text: string }) => chat.edit(input),
    'chat.continue': (input: MessageRef) => chat.continue(input),
    'chat.cancel': (input: { runId: string }) => ({ cancelled: chat.cancel(input.runId) }),
    'chat.answer': (input: { runId: string; sessionId?: string | undefined; input: string }) => ({
      accepted: chat.answer(input.runId, input.input, input.sessionId),
    }),
    'chat.instructionTokens': async (input: {
      global?: string | undefined
      conversation?: string | undefined
    }) => ({
      tokens: await countTokens(customInstructionsSection(input)),
    }),
    'chat.approve': (input: {
      runId: string
      approvalId: string
      decision: ApprovalDecision
      text?: string | undefined
    }) => ({
      accepted: chat.approve(input.runId, input.approvalId, input.decision, input.text),
    }),
    'conversations.list': (input?: { query?: string | undefined }) => chat.list(input?.query),
    'conversations.get': (input: { id: string }) => chat.get(input.id),
    'conversations.rename': (input: { id: string; title: string }) => chat.rename(input.id, input.title),
    'conversations.delete': async (input: { id: string }) => ({ deleted: await chat.delete(input.id) }),
    'conversations.deleteMessage': (input: MessageRef) => chat.deleteMessage(input),
    'conversations.select': (input: MessageRef) => chat.select(input),
    'conversations.update': ({ id, ...change }: ConversationChange & { id: string }) =>
      chat.change(id, change),
    'conversations.export': async (input: { id: string; format: 'markdown' | 'json' }) => {
      const conversation = await chat.get(input.id)
      return input.format === 'json'
        ? {
            fileName: exportFileName(conversation, 'json'),
            mimeType: 'application/json',
            text: toExportJson(conversation),
          }
        : {
            fileName: exportFileName(conversation, 'md'),
            mimeType: 'text/markdown',
            text: toMarkdown(conversation),
          }
    },
    'conversations.import': async (input: { text: string }) => {
      let conversation: ReturnType<typeof parseExportJson>
      try {
        conversation = parseExportJson(input.text)
      } catch (error) {
        throw new AppError('VALIDATION_FAILED', error instanceof Error ? error.message : String(error), {
          cause: error,
        })
      }
      return chat.importConversation(conversation)
    },
  }
}
