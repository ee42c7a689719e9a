import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { EmailSettings } from '../../../shared/settings'
import type { EmailEnvironment } from '../../email'
import { startDovecot } from './dovecot'

/** The mailbox of one attempt: an account on the run's Dovecot, and its maildir for the checks. */
export interface TaskMailbox {
  env: EmailEnvironment
  /** The user's maildir (`<dir>` is INBOX, `<dir>/.<Folder>` the others). */
  maildir: string
}

/** The run's mail server, started when the first e-mail task runs. */
export interface EvalMail {
  /** A fresh user whose INBOX holds `messages` (fixture paths), set up as the one account "work". */
  mailbox(fixturesDir: string, messages: readonly string[]): Promise<TaskMailbox>
  close(): Promise<void>
}

const PASSWORD = 'bureau-eval'

export async function startEvalMail(): Promise<EvalMail> {
  const dovecot = await startDovecot({}, { anyUserPassword: PASSWORD })
  let attempts = 0
  return {
    async mailbox(fixturesDir, messages) {
      const user = `task${++attempts}`
      dovecot.maildir(user)
      for (const message of messages) dovecot.deliver(user, await readFile(join(fixturesDir, message)))
      const endpoint = { host: '127.0.0.1', port: dovecot.port, tls: false }
      const settings = EmailSettings.parse({
        defaultAccount: 'work',
        accounts: {
          work: {
            imap: endpoint,
            // No SMTP server: the e-mail tasks draft; a send fails with a clear connection error.
            smtp: { ...endpoint, port: 1 },
            user,
            from: `${user}@bureau.test`,
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
    close: () => dovecot.stop(),
  }
}
