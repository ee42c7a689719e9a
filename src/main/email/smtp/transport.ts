import type Mail from 'nodemailer/lib/mailer'
import { mailError } from '../mailErrors'
import type { EmailEnvironment, ResolvedAccount } from '../types'

async function transportFor(account: ResolvedAccount, env: Pick<EmailEnvironment, 'timeouts'>) {
  const nodemailer = await import('nodemailer')
  return nodemailer.createTransport({
    host: account.smtp.host,
    port: account.smtp.port,
    secure: account.smtp.tls,
    auth: { user: account.user, pass: account.password },
    connectionTimeout: env.timeouts?.connectMs ?? 20_000,
    greetingTimeout: env.timeouts?.connectMs ?? 20_000,
    socketTimeout: env.timeouts?.socketMs ?? 120_000,
  })
}

export interface SendReceipt {
  messageId: string
  accepted: string[]
  rejected: string[]
}

const addressText = (entry: string | Mail.Address): string =>
  (typeof entry === 'string' ? entry : entry.address) ?? ''

/** Sends over SMTP; failures (login, TLS, refused recipients) are `mailError`s. */
export async function sendOverSmtp(
  account: ResolvedAccount,
  env: EmailEnvironment,
  message: Mail.Options,
): Promise<SendReceipt> {
  const transport = await transportFor(account, env)
  try {
    const info = await transport.sendMail(message)
    return {
      messageId: info.messageId ?? '',
      accepted: info.accepted.map(addressText),
      rejected: info.rejected.map(addressText),
    }
  } catch (error) {
    throw mailError(error, 'SMTP', account.smtp, account)
  } finally {
    transport.close()
  }
}

/** Connects and logs in without sending anything (Settings' and the CLI's "Test connection"). */
export async function verifySmtp(account: ResolvedAccount, env: EmailEnvironment): Promise<void> {
  const transport = await transportFor(account, env)
  try {
    await transport.verify()
  } catch (error) {
    throw mailError(error, 'SMTP', account.smtp, account)
  } finally {
    transport.close()
  }
}
