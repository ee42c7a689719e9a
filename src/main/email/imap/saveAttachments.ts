import type { ImapFlow } from 'imapflow'
import { AppError } from '../../../shared/errors'
import { safeFileName, type Workspace } from '../../workspace'
import { defuse } from '../untrustedMail'
import { fetchHead } from './readMessage'
import { type AttachmentPart, attachmentParts, decodedSize } from './structure'

export interface SavedAttachment {
  name: string
  path: string
  bytes: number
  backup?: string
  /** Set when the file got another name than the mail gave it, and why. */
  note?: string
}

export interface SkippedAttachment {
  name: string
  reason: string
}

async function partBytes(client: ImapFlow, uid: number, part: AttachmentPart, maxBytes: number) {
  const download = await client.download(String(uid), part.part, {
    uid: true,
    maxBytes: maxBytes + 1,
    decodeText: false,
  })
  if (!download.content) throw new AppError('NOT_FOUND', `part ${part.part} is gone`)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of download.content) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string)
    size += buffer.length
    chunks.push(buffer)
  }
  if (size > maxBytes)
    throw new AppError('TOO_LARGE', `larger than ${maxBytes} bytes (email.maxAttachmentBytes)`)
  return Buffer.concat(chunks)
}

function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name
  const dot = name.lastIndexOf('.')
  for (let n = 2; taken.has(candidate.toLowerCase()); n++)
    candidate = dot > 0 ? `${name.slice(0, dot)}-${n}${name.slice(dot)}` : `${name}-${n}`
  taken.add(candidate.toLowerCase())
  return candidate
}

/**
 * Saves a message's attachments into a workspace folder, one part at a time (a mail with 200
 * attachments is never loaded whole). Names are made safe (`../../.bashrc` → `.bashrc`, `CON` → `_CON`,
 * 300 characters → shortened); files of the same name in one mail get `-2`, `-3`; an existing file is
 * replaced with a numbered backup. Parts over the size limit are skipped and listed.
 */
export async function saveAttachments(
  client: ImapFlow,
  workspace: Workspace,
  request: { uid: number; folder: string; to: string; names?: string[] | undefined; maxBytes: number },
): Promise<{ saved: SavedAttachment[]; skipped: SkippedAttachment[] }> {
  const head = await fetchHead(client, request.uid, request.folder)
  const wanted = request.names ? new Set(request.names) : undefined
  const parts = attachmentParts(head.bodyStructure).filter((part) => !wanted || wanted.has(part.name))
  if (parts.length === 0)
    throw new AppError('NOT_FOUND', `Message ${request.uid} has no ${wanted ? 'such ' : ''}attachments.`)
  const saved: SavedAttachment[] = []
  const skipped: SkippedAttachment[] = []
  const taken = new Set<string>()
  for (const part of parts) {
    const shown = defuse(part.name)
    if (decodedSize(part) > request.maxBytes) {
      skipped.push({
        name: shown,
        reason: `about ${decodedSize(part)} bytes, over the ${request.maxBytes}-byte limit (email.maxAttachmentBytes)`,
      })
      continue
    }
    const safe = safeFileName(part.name)
    const name = uniqueName(safe.name, taken)
    try {
      const bytes = await partBytes(client, request.uid, part, request.maxBytes)
      const receipt = await workspace.writeFile(`${request.to.replace(/\/+$/, '')}/${name}`, bytes, {
        message: `email: save attachment ${name}`,
      })
      const note =
        safe.why || name !== safe.name ? `saved as ${name}${safe.why ? `: ${safe.why}` : ''}` : undefined
      saved.push({
        name: shown,
        path: receipt.path,
        bytes: receipt.bytes,
        ...(receipt.backup ? { backup: receipt.backup } : {}),
        ...(note ? { note: defuse(note) } : {}),
      })
    } catch (error) {
      if (error instanceof AppError && error.code === 'TOO_LARGE')
        skipped.push({ name: shown, reason: error.message })
      else throw error
    }
  }
  return { saved, skipped }
}
