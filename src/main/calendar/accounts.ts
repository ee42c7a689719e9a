import { AppError } from '../../shared/errors'
import type { CalendarAccount } from '../../shared/settings'
import type { CalendarEnvironment, ResolvedCalendarAccount } from './types'

const SET_UP = 'add one in Settings → Calendar or with `bureau calendar accounts add`'

/** The first field an account lacks, in words, or undefined when it is complete. */
export function missingCalendarField(account: CalendarAccount): string | undefined {
  if (!account.url) return 'a server address (URL)'
  if (!/^https?:\/\//i.test(account.url)) return 'a server address starting with https:// (or http://)'
  if (!account.user) return 'a user name'
  return undefined
}

/** A named account with its password, checked. */
export async function resolveCalendarAccount(
  env: CalendarEnvironment,
  name: string,
): Promise<ResolvedCalendarAccount> {
  const accounts = env.settings().accounts
  const names = Object.keys(accounts).sort()
  const account = accounts[name]
  if (!account)
    throw new AppError(
      'NOT_FOUND',
      names.length === 0
        ? `No calendar account is set up: ${SET_UP}.`
        : `There is no calendar account "${name}". Accounts: ${names.join(', ')}.`,
    )
  const missing = missingCalendarField(account)
  if (missing)
    throw new AppError('VALIDATION_FAILED', `Calendar account "${name}" needs ${missing}: ${SET_UP}.`)
  const password = await env.password(name)
  if (!password)
    throw new AppError(
      'UNAUTHORIZED',
      `Calendar account "${name}" has no password: enter it in Settings → Calendar or with \`bureau calendar accounts add ${name}\`.`,
    )
  return { name, url: account.url, user: account.user, password }
}
