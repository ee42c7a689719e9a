import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Dovecot } from './dovecot'
import { type MailPlace, startSmtpSink } from './smtpSink'
import type { MailSink } from './taskMail'

/**
 * The eval's SMTP sink over the run's Dovecot. Attempts run one after the other, so the sink files into
 * the mailbox of the attempt that asked for the endpoint last: a message to the task's own address goes
 * to its INBOX, one to anybody else into the folder of that person (an existing folder whose name is the
 * address's local part in any case, else the local part capitalised: `alice@example.com` -> `Alice`, as
 * OfficeBench names its people's folders). The sender's copy is left to Bureau's e-mail tool, which
 * appends it to the account's Sent folder itself.
 */
export async function startOfficeSink(dovecot: Dovecot): Promise<MailSink> {
  let current: { user: string; address: string } | undefined
  const folderOf = (user: string, local: string): string => {
    const names = readdirSync(join(dovecot.dir, 'home', user, 'Maildir')).filter((n) => n.startsWith('.'))
    const found = names.find((n) => n.slice(1).toLowerCase() === local.toLowerCase())
    return found ? found.slice(1) : `${local.charAt(0).toUpperCase()}${local.slice(1)}`
  }
  const sink = await startSmtpSink({
    deliver: (user, raw, folder) => dovecot.deliver(user, raw, folder),
    inboxOf(address): MailPlace | undefined {
      if (!current) return undefined
      const lower = address.toLowerCase()
      if (lower === current.address.toLowerCase()) return { user: current.user, folder: 'INBOX' }
      const local = lower.split('@')[0]?.replace(/[^a-z0-9._-]/g, '')
      return local ? { user: current.user, folder: folderOf(current.user, local) } : undefined
    },
    sentOf: () => undefined,
  })
  return {
    async endpoint(user, address) {
      current = { user, address }
      return { host: sink.host, port: sink.port }
    },
    close: () => sink.close(),
  }
}
