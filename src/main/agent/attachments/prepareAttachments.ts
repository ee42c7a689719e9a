import type { AttachmentMeta } from '../../../shared/ipc'
import type { Logger } from '../../platform'
import type { Workspace } from '../../workspace'
import type { AgentAttachment, AgentEvent } from '../types'
import { attachmentContext, type ConvertedFile, cutToShare } from './attachmentContext'
import { type AttachmentConverter, conversionFailure } from './converterPort'
import { saveToInbox } from './inboxName'

export const DEFAULT_ATTACHMENT_BUDGET = 30_000

export interface PrepareAttachmentsOptions {
  attachments: readonly AgentAttachment[]
  converter?: AttachmentConverter
  /** Where the originals are saved (`/inbox/<name>`); without one they are only read. */
  workspace?: () => Workspace | undefined
  budgetChars?: number
  signal?: AbortSignal
  onEvent?: (event: AgentEvent) => void
  logger?: Logger
}

export interface PreparedAttachments {
  /** Text for the user message: one block per converted file, then the files that failed. */
  context: string
  meta: AttachmentMeta[]
  /** One line per file that could not be read, naming it. */
  notices: string[]
}

/** Each file's equal share of the attachment budget, in characters. */
export function attachmentShare(budgetChars: number, count: number): number {
  return Math.max(200, Math.floor(budgetChars / Math.max(1, count)))
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] || 'unknown error' : String(error)
}

/**
 * Saves each attachment into the workspace inbox, converts it to Markdown within an equal share of
 * the budget, and builds the context block. A file that fails is reported and skipped; the rest go on.
 */
export async function prepareAttachments(options: PrepareAttachmentsOptions): Promise<PreparedAttachments> {
  const { attachments } = options
  if (attachments.length === 0) return { context: '', meta: [], notices: [] }
  const budget = options.budgetChars ?? DEFAULT_ATTACHMENT_BUDGET
  const share = attachmentShare(budget, attachments.length)
  const emit = (index: number, meta: AttachmentMeta) =>
    options.onEvent?.({ type: 'attachment', index, attachment: { ...meta } })

  const meta: AttachmentMeta[] = attachments.map((file) => ({
    name: file.name,
    size: file.bytes.length,
    ...(file.mimeType ? { mimeType: file.mimeType } : {}),
    status: 'pending' as const,
  }))
  const converted: ConvertedFile[] = []
  const notices: string[] = []

  for (const [index, file] of attachments.entries()) {
    options.signal?.throwIfAborted()
    const entry = meta[index] as AttachmentMeta
    entry.status = 'converting'
    emit(index, entry)
    const workspace = options.workspace?.()
    let saveNote: string | undefined
    if (workspace) {
      try {
        const saved = await saveToInbox(workspace, file.name, file.bytes)
        entry.agentPath = saved.path
        saveNote = saved.note
      } catch (error) {
        options.logger?.warn('could not save an attachment to the inbox', { error: errorText(error) })
        saveNote = `Not saved to /inbox (${errorText(error)}); it was only read.`
      }
      if (saveNote) options.onEvent?.({ type: 'notice', message: `${file.name}: ${saveNote}` })
    }
    if (!options.converter) {
      entry.status = 'failed'
      entry.error = `Cannot convert "${file.name}": no converter is available.`
    } else {
      try {
        const result = await options.converter.convert(
          { name: file.name, bytes: file.bytes },
          { maxChars: share, signal: options.signal },
        )
        const fitted = cutToShare(result.markdown, share)
        entry.status = 'converted'
        entry.format = result.format
        entry.chars = fitted.markdown.length
        entry.truncated = result.truncated || fitted.truncated
        // The chip shows the saved name's note with the converter's warnings.
        if (saveNote) entry.warnings = [saveNote]
        if (result.warnings?.length) {
          entry.warnings = [...(entry.warnings ?? []), ...result.warnings]
          // Shown on the file's chip; `bureau chat` prints notices on stderr.
          for (const warning of result.warnings)
            options.onEvent?.({ type: 'notice', message: `${file.name}: ${warning}` })
        }
        converted.push({ meta: entry, markdown: fitted.markdown })
      } catch (error) {
        options.signal?.throwIfAborted()
        entry.status = 'failed'
        entry.error = conversionFailure(file.name, error)
      }
    }
    if (entry.status === 'failed' && entry.error) {
      notices.push(`${entry.error} The file was skipped.`)
      options.onEvent?.({ type: 'notice', message: `${entry.error} The file was skipped.` })
    }
    emit(index, entry)
  }
  const failures = meta.filter((m) => m.status === 'failed').map((m) => m.error ?? m.name)
  return { context: attachmentContext(converted, failures), meta, notices }
}
