import type { FetchMessageObject, ImapFlow } from 'imapflow'
import { AppError } from '../../../shared/errors'
import { htmlTextToMarkdown } from '../../convert'
import { clipAddresses, clipSubject } from '../untrustedMail'
import { formatAddresses } from './addresses'
import { visibleFlags } from './flags'
import { type AttachmentPart, attachmentParts, partCount, textPart } from './structure'

/** The text of a summarised (too large) message that is read: its first text part, up to this. */
const SUMMARY_TEXT_BYTES = 512 * 1024
/** HTML longer than this is cut before conversion (a 30 MB HTML body must not reach the converter). */
const MAX_HTML_CHARS = 2_000_000
/**
 * A message with more MIME parts than this is read from its structure (its first text part
 * downloaded, attachments listed) rather than parsed whole: mailparser refuses over 1,000 parts.
 */
const MAX_PARSED_PARTS = 1_000

export interface ReadMail {
  uid: number
  subject: string
  from: string[]
  to: string[]
  cc: string[]
  date?: string | undefined
  messageId?: string | undefined
  inReplyTo?: string | undefined
  flags: string[]
  size: number
  attachments: AttachmentPart[]
  markdown: string
  /** Why only part of the message was read, when it was. */
  summarised?: string | undefined
  /** What was left out or changed on the way to Markdown (HTML cut or flattened, parts not parsed). */
  notes: string[]
}

export async function fetchHead(client: ImapFlow, uid: number, folder: string): Promise<FetchMessageObject> {
  const head = await client.fetchOne(
    String(uid),
    { uid: true, envelope: true, flags: true, size: true, bodyStructure: true, internalDate: true },
    { uid: true },
  )
  if (!head)
    throw new AppError(
      'NOT_FOUND',
      `There is no message with uid ${uid} in "${folder}"; list shows the uids.`,
    )
  return head
}

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string))
  return Buffer.concat(chunks).toString('utf8')
}

async function bodyMarkdown(
  html: string | false | undefined,
  text: string | undefined,
  notes: string[],
): Promise<string> {
  const plain = (text ?? '').replace(/\r\n/g, '\n').trim()
  if (html) {
    if (html.length > MAX_HTML_CHARS)
      notes.push(
        `the HTML part has ${html.length.toLocaleString('en-US')} characters: only its first ${MAX_HTML_CHARS.toLocaleString('en-US')} were read`,
      )
    try {
      const converted = await htmlTextToMarkdown(html.slice(0, MAX_HTML_CHARS))
      notes.push(...converted.warnings)
      if (converted.markdown.trim()) return converted.markdown
    } catch (error) {
      notes.push(
        `the HTML part could not be converted (${(error as Error).message}); ${plain ? 'the plain-text part is shown instead' : 'there is no plain-text part to show instead'}`,
      )
    }
  }
  return plain
}

function headFields(head: FetchMessageObject) {
  const envelope = head.envelope
  const date = envelope?.date
  return {
    uid: head.uid,
    subject: clipSubject(envelope?.subject ?? ''),
    from: clipAddresses(formatAddresses(envelope?.from)),
    to: clipAddresses(formatAddresses(envelope?.to)),
    cc: clipAddresses(formatAddresses(envelope?.cc)),
    ...(date instanceof Date && !Number.isNaN(date.getTime()) ? { date: date.toISOString() } : {}),
    ...(envelope?.messageId ? { messageId: envelope.messageId } : {}),
    ...(envelope?.inReplyTo ? { inReplyTo: envelope.inReplyTo } : {}),
    flags: visibleFlags(head.flags),
    size: head.size ?? 0,
    attachments: attachmentParts(head.bodyStructure),
  }
}

/** A message not parsed whole: its first text part (decoded, cut), attachments from the structure. */
async function readSummarised(client: ImapFlow, head: FetchMessageObject, why: string): Promise<ReadMail> {
  const structure = head.bodyStructure
  const part = textPart(structure, 'text/plain') ?? textPart(structure, 'text/html')
  const notes: string[] = []
  let markdown = ''
  if (part) {
    const download = await client.download(String(head.uid), part, {
      uid: true,
      maxBytes: SUMMARY_TEXT_BYTES,
    })
    const text = download.content ? await streamText(download.content) : ''
    const isHtml = textPart(structure, 'text/plain') === undefined
    markdown = await bodyMarkdown(isHtml ? text : undefined, isHtml ? '' : text, notes)
  }
  return {
    ...headFields(head),
    markdown,
    summarised: `${why}: only the start of its text was read and its attachments are listed, not loaded`,
    notes,
  }
}

/** Reads one message: headers, the body as Markdown (HTML through the converter), attachments listed. */
export async function readMessage(
  client: ImapFlow,
  uid: number,
  folder: string,
  maxBytes: number,
): Promise<ReadMail> {
  const head = await fetchHead(client, uid, folder)
  if ((head.size ?? 0) > maxBytes)
    return readSummarised(
      client,
      head,
      `the message is ${head.size ?? 0} bytes, over the ${maxBytes}-byte limit (email.maxMessageBytes)`,
    )
  const parts = partCount(head.bodyStructure)
  if (parts > MAX_PARSED_PARTS)
    return readSummarised(
      client,
      head,
      `the message has ${parts.toLocaleString('en-US')} MIME parts, more than the ${MAX_PARSED_PARTS.toLocaleString('en-US')} a message is parsed whole with`,
    )
  const full = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true })
  const source = full ? full.source : undefined
  if (!source) throw new AppError('NOT_FOUND', `The message with uid ${uid} in "${folder}" is gone.`)
  const { simpleParser } = await import('mailparser')
  let parsed: Awaited<ReturnType<typeof simpleParser>>
  try {
    parsed = await simpleParser(source, {
      skipTextToHtml: true,
      skipImageLinks: true,
      skipTextLinks: true,
    })
  } catch (error) {
    return readSummarised(client, head, `the message cannot be parsed whole (${(error as Error).message})`)
  }
  const notes: string[] = []
  return { ...headFields(head), markdown: await bodyMarkdown(parsed.html, parsed.text, notes), notes }
}
