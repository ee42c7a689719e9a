import type { EmailSettings } from '../../shared/settings'

/** What the e-mail service needs from the host: the `email` settings and the accounts' passwords. */
export interface EmailEnvironment {
  settings(): EmailSettings
  /** The decrypted password of an account (`email.accounts.<name>.password`), if one is stored. */
  password(account: string): Promise<string | undefined>
  /** Connection and inactivity timeouts in milliseconds (tests shorten them). */
  timeouts?: { connectMs?: number; socketMs?: number }
}

export interface Endpoint {
  host: string
  port: number
  tls: boolean
}

/** An account ready to connect: every field checked, the password decrypted. */
export interface ResolvedAccount {
  name: string
  imap: Endpoint
  smtp: Endpoint
  user: string
  password: string
  from: string
  displayName: string
}
