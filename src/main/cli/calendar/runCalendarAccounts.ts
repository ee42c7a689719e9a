import { AppError } from '../../../shared/errors'
import type { AppNotice } from '../../../shared/ipc'
import { type CalendarAccount, CalendarAccountName, calendarPasswordSecret } from '../../../shared/settings'
import { testCalendarAccount } from '../../calendar'
import { defaultDataDir } from '../../paths'
import { openSettings, type SettingsService } from '../../settings'
import type { CalendarAccountAddOptions, CalendarCliOptions } from '../commandOptions'
import { UsageError } from '../program'
import { readSecretInput } from '../settings/readSecretInput'

function open(options: CalendarCliOptions): Promise<SettingsService> {
  return openSettings({
    dataDir: options.dataDir ?? defaultDataDir(),
    notify: (notice: AppNotice) => process.stderr.write(`${notice.level}: ${notice.message}\n`),
  })
}

async function password(name: string, options: CalendarAccountAddOptions): Promise<string> {
  if (options.passwordEnv) {
    const value = process.env[options.passwordEnv]
    if (!value) throw new UsageError(`The environment variable ${options.passwordEnv} is not set or empty.`)
    return value
  }
  const value = await readSecretInput(`the password of ${name}`)
  if (!value) throw new UsageError('No password given on stdin (or use --password-env VAR).')
  return value
}

function accountOf(name: string, settings: SettingsService): CalendarAccount {
  const account = settings.get().calendar.accounts[name]
  if (!account) throw new AppError('NOT_FOUND', `There is no calendar account named "${name}".`)
  return account
}

export async function runCalendarAccountsAdd(
  name: string,
  options: CalendarAccountAddOptions,
): Promise<void> {
  if (!CalendarAccountName.safeParse(name).success)
    throw new UsageError(`"${name}" is not an account name: use lower-case letters, digits, "-" or "_".`)
  let url: URL
  try {
    url = new URL(options.url)
  } catch {
    throw new UsageError(`--url "${options.url}" is not an address: write it as https://dav.example.com/.`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError('--url must start with https:// (or http:// for a server on this machine).')
  if (url.username || url.password)
    throw new UsageError('Put the user in --user and the password on stdin, not in the address.')
  const secret = await password(name, options)
  const settings = await open(options)
  await settings.update({ calendar: { accounts: { [name]: { url: url.toString(), user: options.user } } } })
  await settings.setSecret(calendarPasswordSecret(name), secret)
  process.stdout.write(
    `Saved calendar account "${name}". Check it with \`bureau calendar accounts test ${name}\`; its calendars are ${name}:<calendar name>.\n`,
  )
}

export async function runCalendarAccountsList(options: CalendarCliOptions): Promise<void> {
  const settings = await open(options)
  const { accounts } = settings.get().calendar
  const names = Object.keys(accounts).sort()
  if (names.length === 0) {
    process.stderr.write(
      'No calendar accounts. Add one with `bureau calendar accounts add NAME --url URL --user USER`.\n',
    )
    return
  }
  const secrets = settings.getPublic().secrets
  for (const name of names) {
    const a = accounts[name]!
    const pw = secrets[calendarPasswordSecret(name)]?.set ? 'password set' : 'no password'
    process.stdout.write(`${name}\t${a.user}\t${a.url}\t${pw}\n`)
  }
}

export async function runCalendarAccountsTest(name: string, options: CalendarCliOptions): Promise<void> {
  const settings = await open(options)
  const account = accountOf(name, settings)
  const result = await testCalendarAccount(
    {
      settings: () => settings.get().calendar,
      password: (n) => settings.getSecret(calendarPasswordSecret(n)),
    },
    name,
    account,
    undefined,
  )
  process.stdout.write(`CalDAV: ${result.ok ? 'ok' : 'failed'}: ${result.message}\n`)
  if (!result.ok) throw new AppError('UNAVAILABLE', `Account "${name}" did not pass the test.`)
}

export async function runCalendarAccountsRm(name: string, options: CalendarCliOptions): Promise<void> {
  const settings = await open(options)
  accountOf(name, settings)
  // The update removes the account's password too.
  await settings.update({ calendar: { accounts: { [name]: null } } })
  process.stdout.write(`Removed calendar account "${name}" and its password.\n`)
}
