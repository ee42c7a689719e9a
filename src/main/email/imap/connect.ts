import type { ImapFlow } from 'imapflow'
import { mailError } from '../mailErrors'
import type { EmailEnvironment, ResolvedAccount } from '../types'

/** Connects and logs in; every failure is a `mailError` (wrong password, TLS, refused, timeout). */
export async function openImap(
  account: ResolvedAccount,
  env: Pick<EmailEnvironment, 'timeouts'>,
): Promise<ImapFlow> {
  const { ImapFlow } = await import('imapflow')
  const client = new ImapFlow({
    host: account.imap.host,
    port: account.imap.port,
    secure: account.imap.tls,
    auth: { user: account.user, pass: account.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: env.timeouts?.connectMs ?? 20_000,
    greetingTimeout: env.timeouts?.connectMs ?? 20_000,
    socketTimeout: env.timeouts?.socketMs ?? 120_000,
  })
  // An unhandled 'error' event would end the process; failures reach callers through their promises.
  client.on('error', () => {})
  try {
    await client.connect()
    return client
  } catch (error) {
    client.close()
    throw mailError(error, 'IMAP', account.imap, account)
  }
}
