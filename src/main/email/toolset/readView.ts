import type { ReadMail } from '../imap/readMessage'
import { decodedSize } from '../imap/structure'
import { defuse, frameMail } from '../untrustedMail'
import { pageText } from './pageText'

/** Attachments listed by `read`; a mail with more says how many and `save_attachments` takes them all. */
const READ_ATTACHMENTS = 50

/** The `read` result: structured headers plus one page of the text, framed as untrusted mail content. */
export function readView(mail: ReadMail, where: { account: string; folder: string }, page: number) {
  const pages = pageText(mail.markdown)
  const index = Math.min(page, pages.length)
  const shown = mail.attachments.slice(0, READ_ATTACHMENTS)
  const notes = [
    ...mail.notes,
    ...(mail.attachments.length > shown.length
      ? [
          `${shown.length} of ${mail.attachments.length.toLocaleString('en-US')} attachments are listed; save_attachments saves them all, or those named`,
        ]
      : []),
  ].map(defuse)
  const header = [
    `From: ${mail.from.join(', ')}`,
    `To: ${mail.to.join(', ')}`,
    ...(mail.cc.length > 0 ? [`Cc: ${mail.cc.join(', ')}`] : []),
    `Subject: ${mail.subject}`,
    ...(mail.date ? [`Date: ${mail.date}`] : []),
    ...(mail.attachments.length > 0
      ? [
          `Attachments (${mail.attachments.length}): ${shown.map((a) => a.name).join(', ')}${mail.attachments.length > shown.length ? ', …' : ''}`,
        ]
      : []),
    ...(mail.summarised ? [`Summarised: ${mail.summarised}`] : []),
    ...notes.map((note) => `Note: ${note}`),
    ...(pages.length > 1 ? [`Page ${index} of ${pages.length}`] : []),
  ]
  return {
    account: where.account,
    folder: where.folder,
    uid: mail.uid,
    subject: defuse(mail.subject),
    from: mail.from.map(defuse),
    to: mail.to.map(defuse),
    cc: mail.cc.map(defuse),
    ...(mail.date ? { date: mail.date } : {}),
    ...(mail.messageId ? { message_id: defuse(mail.messageId) } : {}),
    flags: mail.flags,
    size: mail.size,
    attachments: shown.map((a) => ({ name: defuse(a.name), type: a.type, size: decodedSize(a) })),
    attachment_count: mail.attachments.length,
    page: index,
    pages: pages.length,
    ...(index < pages.length ? { next_page: index + 1 } : {}),
    ...(mail.summarised ? { summarised: defuse(mail.summarised) } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    content: frameMail(
      mail.from.join(', '),
      `account ${where.account}, folder ${where.folder}, uid ${mail.uid}`,
      header,
      pages[index - 1] ?? '',
    ),
  }
}
