import { z } from 'zod'
import { route } from '../defineContract'
import { ConversationId } from './chat'

export const DocumentExportFormat = z.enum(['docx', 'pdf'])
export type DocumentExportFormat = z.infer<typeof DocumentExportFormat>

export const DocumentExportResult = z.object({
  /** Where the file was written in the workspace (`/exports/<title>.docx`). */
  agentPath: z.string(),
  bytes: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative().optional(),
  /** Diagrams kept as code, pictures left out. */
  warnings: z.array(z.string()),
})
export type DocumentExportResult = z.infer<typeof DocumentExportResult>

export const documentRoutes = {
  'documents.exportConversation': route({
    summary:
      'Writes a conversation (or one answer) to /exports as DOCX or PDF, with tables, code and diagrams drawn.',
    input: z.object({
      id: ConversationId,
      format: DocumentExportFormat,
      messageId: z.string().max(100).optional(),
    }),
    output: DocumentExportResult,
  }),
}
