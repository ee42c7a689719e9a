import { AppError } from '../../shared/errors'
import type { EmailAccount, EmailSettings } from '../../shared/settings'
import type { EmailEnvironment, ResolvedAccount } from './types'

const SET_UP = 'add one in Settings → E-mail or with `bureau email accounts add`'

/** The account a call means: the one named, else the default, else the only (or first) one. */
export function pickAccountName(settings: EmailSettings, requested?: string): string {
  const names = Object.keys(settings.accounts).sort()
  if (names.length === 0) throw new AppError('NOT_FOUND', `No e-mail account is set up: ${SET_UP}.`)
  const wanted = requested?.trim() || settings.defaultAccount
  if (!wanted) return names[0]!
  if (!names.includes(wanted))
    throw new AppError('NOT_FOUND', `There is no e-mail account "${wanted}". Accounts: ${names.join(', ')}.`)
  return wanted
}

/** The first field an account lacks for `use`, in words, or undefined when it is complete. */
export function missingField(account: EmailAccount, use: 'imap' | 'smtp' | 'both'): string | undefined {
  if ((use === 'imap' || use === 'both') && !account.imap.host) return 'an IMAP host'
  if ((use === 'smtp' || use === 'both') && !account.smtp.host) return 'an SMTP host'
  if (!account.user) return 'a user name'
  if (use !== 'imap' && !account.from) return 'a from-address'
  return undefined
}

/** The account with its password, checked for what `use` needs. */
export async function resolveAccount(
  env: EmailEnvironment,
  requested: string | undefined,
  use: 'imap' | 'smtp' | 'both',
): Promise<ResolvedAccount> {
  const settings = env.settings()
  const name = pickAccountName(settings, requested)
  const account = settings.accounts[name]!
  const missing = missingField(account, use)
  if (missing)
    throw new AppError('VALIDATION_FAILED', `E-mail account "${name}" needs ${missing}: ${SET_UP}.`)
  const password = await env.password(name)
  if (!password)
    throw new AppError(
      'UNAUTHORIZED',
      `E-mail account "${name}" has no password: enter it in Settings → E-mail or with \`bureau email accounts add ${name}\`.`,
    )
  return {
    name,
    imap: { ...account.imap },
    smtp: { ...account.smtp },
    user: account.user,
    password,
    from: account.from,
    displayName: account.displayName,
  }
}
