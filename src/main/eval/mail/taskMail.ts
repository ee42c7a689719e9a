import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { EmailSettings } from '../../../shared/settings'
import type { EmailEnvironment } from '../../email'
import type { TaskMessage } from '../taskSchema'
import { type Dovecot, startDovecot } from './dovecot'

/** The mailbox of one attempt: an account on the run's Dovecot, and its maildir for the checks. */
export interface TaskMailbox {
  env: EmailEnvironment
  /** The user's maildir (`<dir>` is INBOX, `<dir>/.<Folder>` the others). */
  maildir: string
}

/** The run's mail server, started when the first e-mail task runs. */
export interface EvalMail {
  /**
   * A fresh user set up as the one account "work": its INBOX holds `messages` (fixture paths), and
   * `held` (messages in memory) go to their folders; `address` is the account's From address.
   */
  mailbox(
    fixturesDir: string,
    messages: readonly string[],
    held?: readonly TaskMessage[],
    address?: string,
  ): Promise<TaskMailbox>
  close(): Promise<void>
}

/**
 * Where the mail a task sends goes: an SMTP endpoint on 127.0.0.1 that files each message into the
 * sender's `Sent` folder and into the folder of each recipient named after the address's local part
 * (`alice@example.com` -> `alice`; the user's own address -> INBOX), so the mail checks read real IMAP
 * state. Without a sink a send fails with a connection error.
 */
export interface MailSink {
  /** The SMTP endpoint for the mailbox of `user` (the Dovecot user whose maildir it files into). */
  endpoint(user: string, address: string): Promise<{ host: string; port: number }>
  close(): Promise<void>
}

export interface EvalMailOptions {
  sink?: (dovecot: Dovecot) => Promise<MailSink>
}

const PASSWORD = 'bureau-eval'

export async function startEvalMail(options: EvalMailOptions = {}): Promise<EvalMail> {
  const dovecot = await startDovecot({}, { anyUserPassword: PASSWORD })
  const sink = await options.sink?.(dovecot).catch(async (error) => {
    await dovecot.stop()
    throw error
  })
  let attempts = 0
  return {
    async mailbox(fixturesDir, messages, held = [], address) {
      const user = `task${++attempts}`
      dovecot.maildir(user)
      for (const message of messages) dovecot.deliver(user, await readFile(join(fixturesDir, message)))
      for (const message of held) dovecot.deliver(user, Buffer.from(message.bytes), message.folder)
      // The e-mail tool files its copy of a sent message into an existing Sent folder.
      if (held.length > 0 || sink) dovecot.maildir(user, 'Sent')
      const from = address ?? `${user}@bureau.test`
      const endpoint = { host: '127.0.0.1', port: dovecot.port, tls: false }
      const smtp = sink ? { ...(await sink.endpoint(user, from)), tls: false } : undefined
      const settings = EmailSettings.parse({
        defaultAccount: 'work',
        accounts: {
          work: {
            imap: endpoint,
            // No sink: the e-mail tasks draft; a send fails with a clear connection error.
            smtp: smtp ?? { ...endpoint, port: 1 },
            user,
            from,
            displayName: 'Eval User',
          },
        },
      })
      return {
        env: {
          settings: () => settings,
          password: async () => PASSWORD,
          timeouts: { connectMs: 10_000, socketMs: 30_000 },
        },
        maildir: join(dovecot.dir, 'home', user, 'Maildir'),
      }
    },
    async close() {
      await sink?.close().catch(() => {})
      await dovecot.stop()
    },
  }
}
