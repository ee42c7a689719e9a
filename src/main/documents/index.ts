export type { PdfPrinter, PdfPrintRequest } from './chromium/documentBrowser'
export { documentHandlers } from './documentHandlers'
export type { ConversationExport, ExportFormat } from './export/exportConversation'
export type { DocumentsEnvironment } from './toolset/documentsToolset'

/** The `documents` toolset, loaded on demand (docx, unified and playwright-core load only when it is used). */
export async function loadDocumentsToolset(
  env: import('./toolset/documentsToolset').DocumentsEnvironment = {},
) {
  const { createDocumentsToolset } = await import('./toolset/documentsToolset')
  return createDocumentsToolset(env)
}

/** A conversation (or one answer) as DOCX or PDF bytes, for the chat's export menu. */
export async function exportConversationDocument(
  ...args: Parameters<typeof import('./export/exportConversation').exportConversation>
) {
  const { exportConversation } = await import('./export/exportConversation')
  return exportConversation(...args)
}
