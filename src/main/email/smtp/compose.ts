import type { ImapFlow } from 'imapflow'
import type Mail from 'nodemailer/lib/mailer'
import { AppError } from '../../../shared/errors'
import type { Workspace } from '../../workspace'
import type { ResolvedAccount } from '../types'
import { markdownToHtml } from './markdownHtml'

export interface OutgoingMail {
  to: string[]
  cc?: string[] | undefined
  subject: string
  markdown: string
  attachments?: string[] | undefined
  /** The uid of the mail this answers, in `folder`. */
  in_reply_to?: number | undefined
  folder?: string | undefined
}

export interface Thread {
  inReplyTo: string
  references: string
}

const ADDRESS = /^[^\s<>@,;]+@[^\s<>@,;]+\.[^\s<>@,;]+$/

function checkAddresses(list: readonly string[], field: string): void {
  for (const entry of list) {
    const address = entry.match(/<([^>]+)>\s*$/)?.[1] ?? entry.trim()
    if (!ADDRESS.test(address))
      throw new AppError('VALIDATION_FAILED', `"${entry}" in ${field} is not an e-mail address.`)
  }
}

/** The threading headers of a reply to the message `uid` of the selected folder. */
export async function threading(client: ImapFlow, uid: number, folder: string): Promise<Thread> {
  const original = await client.fetchOne(
    String(uid),
    { uid: true, envelope: true, headers: ['references'] },
    { uid: true },
  )
  const messageId = original ? original.envelope?.messageId : undefined
  if (!original || !messageId)
    throw new AppError('NOT_FOUND', `There is no message with uid ${uid} in "${folder}" to reply to.`)
  const references = (original.headers?.toString('utf8') ?? '')
    .replace(/^references:\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim()
  return { inReplyTo: messageId, references: references ? `${references} ${messageId}` : messageId }
}

/**
 * The nodemailer message: plain and HTML parts from the Markdown, attachments read from the
 * workspace (each within the size limit), threading headers when it answers a mail.
 */
export async function composeMail(
  account: ResolvedAccount,
  mail: OutgoingMail,
  deps: { workspace: () => Workspace; thread?: Thread | undefined; maxAttachmentBytes: number },
): Promise<Mail.Options> {
  checkAddresses(mail.to, 'to')
  checkAddresses(mail.cc ?? [], 'cc')
  const attachments: Mail.Attachment[] = []
  for (const path of mail.attachments ?? []) {
    const workspace = deps.workspace()
    const info = await workspace.stat(path)
    if (info.type !== 'file')
      throw new AppError('VALIDATION_FAILED', `${path} is a folder, not a file to attach.`)
    if ((info.size ?? 0) > deps.maxAttachmentBytes)
      throw new AppError(
        'TOO_LARGE',
        `${path} is ${info.size} bytes, over the ${deps.maxAttachmentBytes}-byte limit (email.maxAttachmentBytes).`,
      )
    attachments.push({
      filename: info.name,
      content: await workspace.readFile(path, { maxBytes: deps.maxAttachmentBytes }),
    })
  }
  return {
    from: account.displayName ? { name: account.displayName, address: account.from } : account.from,
    to: mail.to,
    ...(mail.cc && mail.cc.length > 0 ? { cc: mail.cc } : {}),
    subject: mail.subject,
    text: mail.markdown,
    html: await markdownToHtml(mail.markdown),
    attachments,
    ...(deps.thread ?? {}),
  }
}

/** The message as RFC 5322 bytes (for APPEND to Drafts or Sent) and its Message-ID. */
export async function buildRaw(options: Mail.Options): Promise<{ raw: Buffer; messageId: string }> {
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer')
  const node = new MailComposer(options).compile()
  const raw = await node.build()
  return { raw, messageId: node.messageId() }
}
