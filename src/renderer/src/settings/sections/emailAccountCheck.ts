import { EmailAccountName } from '../../../../shared/settings'

/** What the e-mail form holds as typed: ports stay text until they are whole numbers in range. */
export interface AccountFields {
  name: string
  user: string
  from: string
  imapHost: string
  imapPort: string
  smtpHost: string
  smtpPort: string
  password: string
}

export type AccountErrors = Partial<Record<keyof AccountFields, string>>

/** The fields in screen order: the first with an error gets the focus on Save. */
export const ACCOUNT_FIELD_ORDER: readonly (keyof AccountFields)[] = [
  'name',
  'user',
  'from',
  'imapHost',
  'imapPort',
  'smtpHost',
  'smtpPort',
  'password',
]

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/
const HOST = /^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$|^\[[0-9A-Fa-f:.]+\]$/

function portError(text: string): string | undefined {
  if (text.trim() === '') return 'Enter a port, e.g. 993 for IMAP or 587 for SMTP.'
  if (!/^\d+$/.test(text.trim())) return 'A port is a whole number.'
  const port = Number(text)
  return port < 1 || port > 65535 ? 'A port is between 1 and 65535.' : undefined
}

function hostError(text: string, example: string): string | undefined {
  if (text.trim() === '') return `Enter the server's name, e.g. ${example}.`
  return HOST.test(text.trim())
    ? undefined
    : 'A host name has letters, digits, dots and "-" only (no http://).'
}

/**
 * Every problem of an account form at once, keyed by field. `passwordStored`: an existing account's
 * stored password counts, so its empty password box is fine.
 */
export function accountErrors(fields: AccountFields, passwordStored: boolean): AccountErrors {
  const errors: AccountErrors = {}
  const name = EmailAccountName.safeParse(fields.name)
  if (fields.name === '') errors.name = 'Enter a name for the account, e.g. work.'
  else if (!name.success) errors.name = name.error.issues[0]?.message ?? 'Not a valid name.'
  if (fields.user.trim() === '') errors.user = 'Enter the user name the mail server knows you by.'
  if (fields.from.trim() === '') errors.from = 'Enter the address mail is sent from.'
  else if (!EMAIL.test(fields.from.trim())) errors.from = 'Enter an e-mail address, e.g. ana@example.com.'
  const imapHost = hostError(fields.imapHost, 'imap.example.com')
  if (imapHost) errors.imapHost = imapHost
  const imapPort = portError(fields.imapPort)
  if (imapPort) errors.imapPort = imapPort
  const smtpHost = hostError(fields.smtpHost, 'smtp.example.com')
  if (smtpHost) errors.smtpHost = smtpHost
  const smtpPort = portError(fields.smtpPort)
  if (smtpPort) errors.smtpPort = smtpPort
  if (!passwordStored && fields.password === '') errors.password = 'Enter the password (stored encrypted).'
  return errors
}
