import type { Conversation } from '../../shared/ipc'
import type { Workspace } from '../workspace'
import type { DocumentsEnvironment } from './toolset/documentsToolset'

export interface DocumentHandlerOptions {
  chat: { get(id: string): Promise<Conversation> }
  workspace: () => Workspace
  browser?: DocumentsEnvironment
}

/** `documents.exportConversation`: the chat's "Export as Word/PDF" menu (the exporter loads on first use). */
export function documentHandlers(options: DocumentHandlerOptions) {
  return {
    'documents.exportConversation': async (input: {
      id: string
      format: 'docx' | 'pdf'
      messageId?: string | undefined
    }) => {
      const { exportConversation } = await import('./export/exportConversation')
      return exportConversation({
        conversation: await options.chat.get(input.id),
        format: input.format,
        messageId: input.messageId,
        workspace: options.workspace(),
        ...(options.browser ? { browser: options.browser } : {}),
      })
    },
  }
}
