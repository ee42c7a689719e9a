import { AppError } from '../../../shared/errors'
import { type EmailAccount, EmailAccountName, emailPasswordSecret } from '../../../shared/settings'
import { testEmailAccount } from '../../email'
import type { SettingsService } from '../../settings'
import type { EmailAccountAddOptions, EmailCliOptions } from '../commandOptions'
import { UsageError } from '../program'
import { openSettingsForCli, readAccountPassword } from '../settings/accountInput'
import { cliStreams } from '../textIo'

function open(options: { dataDir?: string }): Promise<SettingsService> {
  return openSettingsForCli(options.dataDir)
}

function port(text: string | undefined, fallback: number, flag: string): number {
  if (text === undefined) return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1 || value > 65_535)
    throw new UsageError(`${flag} must be a port (1-65535).`)
  return value
}

function password(name: string, options: EmailAccountAddOptions): Promise<string> {
  return readAccountPassword(name, options.passwordEnv)
}

function accountOf(name: string, settings: SettingsService): EmailAccount {
  const account = settings.get().email.accounts[name]
  if (!account) throw new AppError('NOT_FOUND', `There is no e-mail account named "${name}".`)
  return account
}

export async function runAccountsAdd(name: string, options: EmailAccountAddOptions): Promise<void> {
  if (!EmailAccountName.safeParse(name).success)
    throw new UsageError(`"${name}" is not an account name: use lower-case letters, digits, "-" or "_".`)
  const account: EmailAccount = {
    imap: {
      host: options.imapHost,
      port: port(options.imapPort, options.imapTls ? 993 : 143, '--imap-port'),
      tls: options.imapTls,
    },
    smtp: {
      host: options.smtpHost,
      port: port(options.smtpPort, options.smtpTls ? 465 : 587, '--smtp-port'),
      tls: options.smtpTls === true,
    },
    user: options.user,
    from: options.from,
    displayName: options.displayName ?? '',
  }
  const secret = await password(name, options)
  const settings = await open(options)
  const first = Object.keys(settings.get().email.accounts).length === 0
  await settings.update({
    email: {
      accounts: { [name]: account },
      ...(options.default || first ? { defaultAccount: name } : {}),
    },
  })
  await settings.setSecret(emailPasswordSecret(name), secret)
  cliStreams().stdout.write(
    `Saved e-mail account "${name}"${options.default || first ? ' (default)' : ''}. Check it with \`bureau email accounts test ${name}\`.\n`,
  )
}

export async function runAccountsList(options: EmailCliOptions): Promise<void> {
  const settings = await open(options)
  const { accounts, defaultAccount } = settings.get().email
  const names = Object.keys(accounts).sort()
  if (names.length === 0) {
    cliStreams().stderr.write('No e-mail accounts. Add one with `bureau email accounts add NAME ...`.\n')
    return
  }
  const secrets = settings.getPublic().secrets
  for (const name of names) {
    const a = accounts[name]!
    const pw = secrets[emailPasswordSecret(name)]?.set ? 'password set' : 'no password'
    const mark = name === (defaultAccount || names[0]) ? ' (default)' : ''
    cliStreams().stdout.write(
      `${name}${mark}\t${a.user}\t${a.from}\timap ${a.imap.host}:${a.imap.port}${a.imap.tls ? ' tls' : ''}\tsmtp ${a.smtp.host}:${a.smtp.port}${a.smtp.tls ? ' tls' : ''}\t${pw}\n`,
    )
  }
}

export async function runAccountsTest(name: string, options: EmailCliOptions): Promise<void> {
  const settings = await open(options)
  const account = accountOf(name, settings)
  const result = await testEmailAccount(
    { settings: () => settings.get().email, password: (n) => settings.getSecret(emailPasswordSecret(n)) },
    name,
    account,
    undefined,
  )
  cliStreams().stdout.write(`IMAP: ${result.imap.ok ? 'ok' : 'failed'}: ${result.imap.message}\n`)
  cliStreams().stdout.write(`SMTP: ${result.smtp.ok ? 'ok' : 'failed'}: ${result.smtp.message}\n`)
  if (!result.imap.ok || !result.smtp.ok)
    throw new AppError('UNAVAILABLE', `Account "${name}" did not pass the test.`)
}

export async function runAccountsRm(name: string, options: EmailCliOptions): Promise<void> {
  const settings = await open(options)
  accountOf(name, settings)
  const wasDefault = settings.get().email.defaultAccount === name
  // The update removes the account's password too.
  await settings.update({
    email: { accounts: { [name]: null }, ...(wasDefault ? { defaultAccount: null } : {}) },
  })
  cliStreams().stdout.write(`Removed e-mail account "${name}" and its password.\n`)
}
