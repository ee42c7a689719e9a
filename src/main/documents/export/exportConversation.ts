import { AppError } from '../../../shared/errors'
import type { Conversation } from '../../../shared/ipc'
import type { Workspace } from '../../workspace'
import {
  createDocumentBrowser,
  type DocumentBrowser,
  type DocumentBrowserOptions,
} from '../chromium/documentBrowser'
import { renderDocx, renderPdf } from '../createDocuments'
import { conversationMarkdown } from './conversationMarkdown'

export type ExportFormat = 'docx' | 'pdf'

export interface ConversationExport {
  agentPath: string
  bytes: number
  pages?: number
  warnings: string[]
}

export interface ExportRequest {
  conversation: Conversation
  format: ExportFormat
  /** Only this answer (default: the whole conversation). */
  messageId?: string | undefined
  workspace: Workspace
  browser?: DocumentBrowserOptions
  /** A browser to reuse (left open); default: one started for this export and closed after it. */
  documentBrowser?: DocumentBrowser
}

export const EXPORT_FOLDER = '/exports'

function fileStem(title: string): string {
  const stem = title
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80)
  return stem || 'conversation'
}

async function freePath(workspace: Workspace, stem: string, extension: string): Promise<string> {
  for (let n = 1; n < 1000; n += 1) {
    const path = `${EXPORT_FOLDER}/${stem}${n === 1 ? '' : `-${n}`}.${extension}`
    if (!(await workspace.exists(path))) return path
  }
  throw new AppError('CONFLICT', `Too many exports named ${stem} in ${EXPORT_FOLDER}.`)
}

/** Writes the conversation (or one answer) to /exports as DOCX or PDF, diagrams drawn, and says where. */
export async function exportConversation(request: ExportRequest): Promise<ConversationExport> {
  const { conversation, format, workspace } = request
  if (request.messageId && !conversation.messages.some((m) => m.id === request.messageId))
    throw new AppError('NOT_FOUND', 'That message is not in the conversation.')
  const source = {
    markdown: conversationMarkdown(conversation, request.messageId),
    title: conversation.title,
    baseDir: '/',
  }
  const browser = request.documentBrowser ?? createDocumentBrowser(request.browser)
  try {
    const env = { browser, workspace }
    const rendered =
      format === 'pdf'
        ? await renderPdf(source, env, { pageSize: 'A4', margins: '2cm' })
        : await renderDocx(source, env)
    const path = await freePath(workspace, fileStem(conversation.title), format)
    const receipt = await workspace.writeFile(path, rendered.bytes, {
      overwrite: false,
      message: `export ${path}`,
    })
    return {
      agentPath: receipt.path,
      bytes: receipt.bytes,
      ...(rendered.pages !== undefined ? { pages: rendered.pages } : {}),
      warnings: rendered.warnings,
    }
  } finally {
    if (!request.documentBrowser) await browser.close()
  }
}
