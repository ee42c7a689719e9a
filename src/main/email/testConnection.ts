import { AppError } from '../../shared/errors'
import type { EmailAccount } from '../../shared/settings'
import { missingField } from './accounts'
import { openImap } from './imap/connect'
import { verifySmtp } from './smtp/transport'
import type { EmailEnvironment, ResolvedAccount } from './types'

export interface ConnectionCheck {
  ok: boolean
  /** What happened, in one line: the folder count, or the error to fix. */
  message: string
}

export interface AccountCheck {
  imap: ConnectionCheck
  smtp: ConnectionCheck
}

function resolved(name: string, account: EmailAccount, password: string): ResolvedAccount {
  return { name, ...account, imap: { ...account.imap }, smtp: { ...account.smtp }, password }
}

async function checkImap(account: ResolvedAccount, env: EmailEnvironment): Promise<ConnectionCheck> {
  const client = await openImap(account, env)
  try {
    const folders = await client.list()
    return {
      ok: true,
      message: `Logged in to ${account.imap.host}:${account.imap.port}; ${folders.length} folder${folders.length === 1 ? '' : 's'}.`,
    }
  } finally {
    await client.logout().catch(() => client.close())
  }
}

async function checkSmtp(account: ResolvedAccount, env: EmailEnvironment): Promise<ConnectionCheck> {
  await verifySmtp(account, env)
  return { ok: true, message: `Logged in to ${account.smtp.host}:${account.smtp.port}; ready to send.` }
}

const failed = (error: unknown): ConnectionCheck => ({
  ok: false,
  message: error instanceof AppError ? error.message : String((error as Error)?.message ?? error),
})

/**
 * Logs in to both servers of an account (saved or a draft from the Settings form) and says what
 * happened to each; nothing is sent or changed.
 */
export async function testAccount(
  env: EmailEnvironment,
  name: string,
  account: EmailAccount,
  password: string | undefined,
): Promise<AccountCheck> {
  const pass = password ?? (await env.password(name))
  const missing = (use: 'imap' | 'smtp') => missingField(account, use) ?? (pass ? undefined : 'a password')
  const run = async (use: 'imap' | 'smtp'): Promise<ConnectionCheck> => {
    const lacks = missing(use)
    if (lacks) return { ok: false, message: `The account needs ${lacks}.` }
    const full = resolved(name, account, pass!)
    return (use === 'imap' ? checkImap(full, env) : checkSmtp(full, env)).catch(failed)
  }
  const [imap, smtp] = await Promise.all([run('imap'), run('smtp')])
  return { imap, smtp }
}
