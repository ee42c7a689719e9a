import type { ChatService } from '../agent'
import { type DocumentsEnvironment, exportConversationDocument } from '../documents'
import type { Workspace } from '../workspace'

export interface DocumentHandlerOptions {
  chat: Pick<ChatService, 'get'>
  workspace: () => Workspace
  browser?: DocumentsEnvironment
}

/** `documents.exportConversation`: the chat's "Export as Word/PDF" menu. */
export function documentHandlers(options: DocumentHandlerOptions) {
  return {
    'documents.exportConversation': async (input: {
      id: string
      format: 'docx' | 'pdf'
      messageId?: string | undefined
    }) =>
      exportConversationDocument({
        conversation: await options.chat.get(input.id),
        format: input.format,
        messageId: input.messageId,
        workspace: options.workspace(),
        ...(options.browser ? { browser: options.browser } : {}),
      }),
  }
}
