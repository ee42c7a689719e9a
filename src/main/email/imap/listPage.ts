import type { FetchMessageObject, ImapFlow, SearchObject } from 'imapflow'
import { clipAddresses, clipSubject, defuse } from '../untrustedMail'
import { formatAddresses } from './addresses'
import { visibleFlags } from './flags'
import { attachmentParts } from './structure'

/** Attachment names shown per message in a listing; the count says how many there are. */
export const LISTED_ATTACHMENTS = 20

export interface MessageSummary {
  uid: number
  from: string[]
  to: string[]
  subject: string
  date?: string | undefined
  size: number
  flags: string[]
  attachments: string[]
  attachment_count: number
}

export interface MessagePage {
  folder: string
  total: number
  page: number
  pages: number
  next_page?: number | undefined
  messages: MessageSummary[]
}

function summarise(message: FetchMessageObject): MessageSummary {
  const envelope = message.envelope
  const parts = attachmentParts(message.bodyStructure)
  const date = envelope?.date ?? message.internalDate
  return {
    uid: message.uid,
    from: clipAddresses(formatAddresses(envelope?.from)).map(defuse),
    to: clipAddresses(formatAddresses(envelope?.to)).map(defuse),
    subject: defuse(clipSubject(envelope?.subject ?? '')),
    ...(date instanceof Date && !Number.isNaN(date.getTime()) ? { date: date.toISOString() } : {}),
    size: message.size ?? 0,
    flags: visibleFlags(message.flags),
    attachments: parts.slice(0, LISTED_ATTACHMENTS).map((part) => defuse(part.name)),
    attachment_count: parts.length,
  }
}

/**
 * One page of the messages matching `criteria` in the selected folder, newest (highest UID) first.
 * Only the page's messages are fetched, and only their envelope, flags, size and structure.
 */
export async function messagePage(
  client: ImapFlow,
  folder: string,
  criteria: SearchObject,
  paging: { count: number; page: number },
): Promise<MessagePage> {
  // The connection may have had this folder open for a while: NOOP lets the server report new mail.
  await client.noop()
  const found = await client.search(criteria, { uid: true })
  const uids = (found || []).sort((a, b) => b - a)
  const pages = Math.max(1, Math.ceil(uids.length / paging.count))
  const slice = uids.slice((paging.page - 1) * paging.count, paging.page * paging.count)
  const messages: MessageSummary[] = []
  if (slice.length > 0) {
    const fetched = await client.fetchAll(
      slice,
      { uid: true, envelope: true, flags: true, size: true, bodyStructure: true, internalDate: true },
      { uid: true },
    )
    const byUid = new Map(fetched.map((message) => [message.uid, message]))
    for (const uid of slice) {
      const message = byUid.get(uid)
      if (message) messages.push(summarise(message))
    }
  }
  return {
    folder,
    total: uids.length,
    page: paging.page,
    pages,
    ...(paging.page < pages ? { next_page: paging.page + 1 } : {}),
    messages,
  }
}
