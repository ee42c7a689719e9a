import { z } from 'zod'

const MIB = 1024 * 1024

/** Account names: what `account` takes in the `email` toolset and the key of the encrypted password. */
export const EmailAccountName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'Use lower-case letters, digits, "-" or "_" (up to 64), e.g. work.')

const Host = z.string().trim().max(253).default('')
const Port = (port: number) => z.number().int().min(1).max(65_535).default(port)

/**
 * One mailbox. Fields have defaults so a hand-edited file never invalidates the whole settings file;
 * the e-mail service says which field is missing when the account is used. The password is a secret
 * (`email.accounts.<name>.password`), never stored here.
 */
export const EmailAccount = z.looseObject({
  imap: z
    .looseObject({
      host: Host,
      port: Port(993),
      /** TLS from the first byte (port 993); off: plain connection upgraded with STARTTLS when offered. */
      tls: z.boolean().default(true),
    })
    .prefault({}),
  smtp: z
    .looseObject({
      host: Host,
      port: Port(587),
      /** TLS from the first byte (port 465); off: STARTTLS when the server offers it (port 587). */
      tls: z.boolean().default(false),
    })
    .prefault({}),
  user: z.string().max(320).default(''),
  /** The sender address of mail sent from this account. */
  from: z.string().max(320).default(''),
  displayName: z.string().max(200).default(''),
})
export type EmailAccount = z.output<typeof EmailAccount>

/** E-mail accounts for the `email` toolset and the limits that keep a mailbox out of the prompt. */
export const EmailSettings = z.looseObject({
  accounts: z.record(EmailAccountName, EmailAccount).default({}),
  /** The account used when a call names none; empty: the only account, or the first by name. */
  defaultAccount: z.string().max(64).default(''),
  /** Attachments larger than this are not saved or sent. */
  maxAttachmentBytes: z
    .number()
    .int()
    .min(1)
    .max(1024 * MIB)
    .default(25 * MIB),
  /** A message larger than this is summarised from its structure: its text part only, attachments listed. */
  maxMessageBytes: z
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 * MIB)
    .default(10 * MIB),
})
export type EmailSettings = z.output<typeof EmailSettings>

/** The name of an account's encrypted password. */
export function emailPasswordSecret(account: string): string {
  return `email.accounts.${account}.password`
}

/** The passwords of the accounts `before` has and `after` does not: removing an account removes its password. */
export function removedAccountPasswords(before: EmailSettings, after: EmailSettings): string[] {
  return Object.keys(before.accounts)
    .filter((name) => !Object.hasOwn(after.accounts, name))
    .map(emailPasswordSecret)
}
